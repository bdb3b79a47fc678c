import { sameBytes } from '../index/codec.js';
import { META } from './keys.js';
import type { StoreOp, Sub } from './storeOp.js';

/**
 * The head pointer and head state root (META.head, META.headState) of a chain in memory storage,
 * held here instead of in memory-level. Every block rewrites both, and they were the only writes
 * of an automined block left for memory-level: its persistent tree copied a path per put, and the
 * batch cost a prefixed key, two copies, a promise and ~12 µs of a transaction's CPU. Nothing of a
 * memory chain outlives its process, and ChainStore (getHead, getMeta) is their only reader; the
 * other meta keys (genesis, fork record ...), written once, stay in the store. A batch with other
 * writes for the store (a plugin's block hook) still carries the head there too, as before.
 */
export class MemoryHeads {
  private head: Uint8Array | undefined;
  private headState: Uint8Array | undefined;

  constructor(private readonly meta: Sub) {}

  /** Whether `op` writes one of the keys held here. */
  holds(op: StoreOp): boolean {
    return op.sublevel === this.meta && (sameBytes(op.key, META.head) || sameBytes(op.key, META.headState));
  }

  /** Applies the operations of `ops` on the keys held here, in order (the others are skipped). */
  apply(ops: readonly StoreOp[]): void {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (op.sublevel !== this.meta) continue;
      const value = op.type === 'put' ? op.value : undefined;
      if (sameBytes(op.key, META.head)) this.head = value;
      else if (sameBytes(op.key, META.headState)) this.headState = value;
    }
  }

  /** The value under a key held here (undefined: none written, or deleted); null for a key not held here. */
  get(key: Uint8Array): Uint8Array | undefined | null {
    if (sameBytes(key, META.head)) return this.head;
    if (sameBytes(key, META.headState)) return this.headState;
    return null;
  }
}
