import { MemoryLevel } from 'memory-level';
import { compactCopy } from '../util/compactBytes.js';
import type { PortOp, StoragePort } from './StoragePort.js';

/** The part of memory-level's implementer API the fast batch uses (abstract-level's `_batch`). */
interface RawBatch {
  _batch(ops: { type: 'put' | 'del'; key: Uint8Array; value?: Uint8Array }[], options: object): Promise<void>;
}

/** In-memory storage on memory-level: the default for in-process chains and tests. */
export function memoryStorage(): StoragePort {
  const db = new MemoryLevel<Uint8Array, Uint8Array>({
    keyEncoding: 'view',
    valueEncoding: 'view',
    storeEncoding: 'view',
  });
  return {
    kind: 'memory',
    location: ':memory:',
    db,
    /**
     * A block's batch straight into memory-level's tree, keys prefixed by their sublevel. The
     * public `batch` clones, validates and re-encodes every operation (~15 µs each, about a
     * tenth of an automined block's CPU); here keys and values are already views in the
     * store's own encoding, unless a hook or `write` listener asks for the public path. Not
     * async: memory-level's promise is handed back (ChainStore's async write awaits it, and turns
     * a throw here into its rejection), one async frame and await fewer per block.
     */
    writeBatch(ops: readonly PortOp[]): Promise<void> {
      // Through the public batch when it must do more than write: a closed database's error, a
      // prewrite hook or a `write` listener (a plugin watching its writes land with the block's).
      if (
        db.status !== 'open' ||
        !(db.hooks.prewrite as unknown as { noop: boolean }).noop ||
        db.listenerCount('write') > 0
      ) {
        // biome-ignore lint/suspicious/noExplicitAny: abstract-level's batch typing does not model mixed sublevels
        return db.batch(ops as any);
      }
      const raw = new Array(ops.length);
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i];
        const key = op.sublevel.prefixKey(op.key, 'view', false) as Uint8Array;
        raw[i] =
          op.type === 'put'
            ? { type: 'put', key: compactCopy(key), value: compactCopy(op.value) }
            : { type: 'del', key };
      }
      return (db as unknown as RawBatch)._batch(raw, {});
    },
    async open() {
      await db.open();
    },
    async close() {
      await db.close();
    },
  };
}
