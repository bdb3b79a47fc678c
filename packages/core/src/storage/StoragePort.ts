import type { AbstractLevel, AbstractSublevel } from 'abstract-level';

/**
 * What a kernel needs from storage: one abstract-level database it may divide into sublevels.
 * `@ashlar/storage-level` provides it on classic-level (LevelDB) and memory-level.
 */
/** One write of a batch, to a sublevel of the port's database (the sublevel must be open). */
export type PortOp =
  // biome-ignore lint/suspicious/noExplicitAny: a sublevel of a database of any backend
  | { type: 'put'; sublevel: AbstractSublevel<any, any, Uint8Array, Uint8Array>; key: Uint8Array; value: Uint8Array }
  // biome-ignore lint/suspicious/noExplicitAny: a sublevel of a database of any backend
  | { type: 'del'; sublevel: AbstractSublevel<any, any, Uint8Array, Uint8Array>; key: Uint8Array };

export interface StoragePort {
  /** `memory` or `level`; shown by `anvil_nodeInfo`-style reports. */
  readonly kind: string;
  /** Where the data lives (a path for LevelDB), for messages. */
  readonly location: string;
  // biome-ignore lint/suspicious/noExplicitAny: abstract-level's format parameter varies by backend
  readonly db: AbstractLevel<any, any, any>;
  /**
   * Optional fast path for one atomic batch of sublevel operations (ChainStore.write). Backends
   * that can apply already-prefixed keys directly offer it; without it, writes go through
   * `db.batch`.
   */
  writeBatch?(ops: readonly PortOp[]): Promise<void>;
  open(): Promise<void>;
  close(): Promise<void>;
}
