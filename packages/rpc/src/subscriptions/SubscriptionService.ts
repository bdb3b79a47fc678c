import { token } from '@ashlar/core';
import type { ChainFeed, FeedListener } from './ChainFeed.js';
import { newSubscriptionId } from './ids.js';
import { type NotifyingConnection, Subscription } from './Subscription.js';

interface Entry {
  sub: Subscription;
  owner: NotifyingConnection;
  stop: () => void;
}

/**
 * Every eth_subscribe subscription of a kernel, by id and by connection. A subscription
 * belongs to the connection that made it: only that connection can end it, and it ends
 * when the connection closes. Connections are told apart by object identity, so two
 * transports that happen to use the same id strings never share subscriptions.
 */
export class SubscriptionService {
  private readonly byId = new Map<string, Entry>();
  private readonly byConnection = new Map<NotifyingConnection, Set<string>>();

  constructor(private readonly feed: ChainFeed) {}

  /** Live subscriptions. */
  get size(): number {
    return this.byId.size;
  }

  /** Connections that hold (or held, and are still open) a subscription. */
  get connections(): number {
    return this.byConnection.size;
  }

  /** Starts a subscription: `listen` wires a notify function to the chain events it wants. */
  subscribe(connection: NotifyingConnection, listen: (notify: (result: unknown) => void) => FeedListener): string {
    let owned = this.byConnection.get(connection);
    if (owned === undefined) {
      owned = new Set();
      this.byConnection.set(connection, owned);
      // Once per connection (not per subscription): a long-lived connection that subscribes
      // and unsubscribes in a loop must not pile up close handlers.
      connection.onClose(() => this.dropConnection(connection));
    }
    const id = newSubscriptionId();
    const sub = new Subscription(id, connection);
    const stop = this.feed.listen(listen((result) => sub.notify(result)));
    this.byId.set(id, { sub, owner: connection, stop });
    owned.add(id);
    // The answer to eth_subscribe leaves through promise callbacks (microtasks); a macrotask
    // later it has been handed to the transport, and held events may follow it.
    setImmediate(() => sub.activate());
    return id;
  }

  /** Ends a subscription of `connection`; false when it has no subscription with that id. */
  unsubscribe(connection: NotifyingConnection, id: string): boolean {
    const entry = this.byId.get(id.toLowerCase());
    if (entry === undefined || entry.owner !== connection) return false;
    this.end(id.toLowerCase(), entry);
    return true;
  }

  /** Ends every subscription of a connection (it closed). */
  dropConnection(connection: NotifyingConnection): void {
    const owned = this.byConnection.get(connection);
    if (owned === undefined) return;
    this.byConnection.delete(connection);
    for (const id of owned) {
      const entry = this.byId.get(id);
      if (entry) this.end(id, entry);
    }
  }

  /** Ends everything (the kernel is closing). */
  close(): void {
    for (const [id, entry] of this.byId) this.end(id, entry);
    this.byConnection.clear();
  }

  private end(id: string, entry: Entry): void {
    entry.sub.stop();
    entry.stop();
    this.byId.delete(id);
    this.byConnection.get(entry.owner)?.delete(id);
  }
}

/** The subscription registry of a kernel: `kernel.resolve(SubscriptionsToken).size`. */
export const SubscriptionsToken = token<SubscriptionService>('rpc:subscriptions');
