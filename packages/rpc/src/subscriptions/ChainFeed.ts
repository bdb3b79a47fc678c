import type { EventBus, KernelEvents, PendingTx, StoredBlock } from '@ashlar/core';
import { BlockView } from './BlockView.js';
import { PendingView } from './PendingView.js';

/** What a subscription or a filter wants to hear about; each handler is optional. */
export interface FeedListener {
  /** A block was committed and is the new head. */
  block?(view: BlockView): void;
  /** The head moved back: these blocks (newest first) left the chain. */
  revert?(removed: readonly BlockView[]): void;
  /** A transaction entered the pool. */
  pending?(view: PendingView): void;
}

/**
 * One kernel event fanned out to many listeners. The kernel listener is attached only while
 * someone listens, so an idle node pays nothing and closed connections leave no listener behind.
 */
class Channel<E extends keyof KernelEvents, V> {
  private readonly fns = new Set<(value: V) => void>();
  private readonly onEvent: (...args: KernelEvents[E]) => void;

  constructor(
    private readonly events: EventBus,
    private readonly event: E,
    toView: (...args: KernelEvents[E]) => V,
    onError: (err: unknown) => void,
  ) {
    this.onEvent = (...args) => {
      const view = toView(...args);
      for (const fn of this.fns) {
        // A failing listener (a broken connection, say) must neither stop the others nor
        // throw into the chain, which emits this event from inside a block commit.
        try {
          fn(view);
        } catch (e) {
          onError(e);
        }
      }
    };
  }

  add(fn: (value: V) => void): () => void {
    if (this.fns.size === 0) this.events.on(this.event, this.onEvent);
    this.fns.add(fn);
    return () => {
      if (this.fns.delete(fn) && this.fns.size === 0) this.events.off(this.event, this.onEvent);
    };
  }
}

/** The kernel's block, revert and pool events as shared views, for subscriptions and filters. */
export class ChainFeed {
  private readonly blocks: Channel<'block', BlockView>;
  private readonly reverts: Channel<'revert', BlockView[]>;
  private readonly pending: Channel<'pendingTransaction', PendingView>;

  constructor(events: EventBus, onError: (err: unknown) => void) {
    this.blocks = new Channel(events, 'block', (sb: StoredBlock) => new BlockView(sb), onError);
    this.reverts = new Channel(
      events,
      'revert',
      ({ removed }) => removed.map((sb) => new BlockView(sb, true)),
      onError,
    );
    this.pending = new Channel(events, 'pendingTransaction', (ptx: PendingTx) => new PendingView(ptx), onError);
  }

  /** Starts delivering to `listener`; the returned function stops it (and is safe to call twice). */
  listen(listener: FeedListener): () => void {
    const stops: (() => void)[] = [];
    if (listener.block) stops.push(this.blocks.add(listener.block.bind(listener)));
    if (listener.revert) stops.push(this.reverts.add(listener.revert.bind(listener)));
    if (listener.pending) stops.push(this.pending.add(listener.pending.bind(listener)));
    return () => {
      for (const stop of stops.splice(0)) stop();
    };
  }
}
