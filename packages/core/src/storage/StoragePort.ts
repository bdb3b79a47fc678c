import type { AbstractLevel } from 'abstract-level';

/**
 * What a kernel needs from storage: one abstract-level database it may divide into sublevels.
 * `@ashlar/storage-level` provides it on classic-level (LevelDB) and memory-level.
 */
export interface StoragePort {
  /** `memory` or `level`; shown by `anvil_nodeInfo`-style reports. */
  readonly kind: string;
  /** Where the data lives (a path for LevelDB), for messages. */
  readonly location: string;
  // biome-ignore lint/suspicious/noExplicitAny: abstract-level's format parameter varies by backend
  readonly db: AbstractLevel<any, any, any>;
  open(): Promise<void>;
  close(): Promise<void>;
}
