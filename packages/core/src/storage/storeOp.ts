import type { AbstractSublevel } from 'abstract-level';

// biome-ignore lint/suspicious/noExplicitAny: sublevel of a database of any backend
export type Sub = AbstractSublevel<any, any, Uint8Array, Uint8Array>;

/**
 * One storage operation; a block's operations are written in one atomic batch. Its own module so
 * that the stores under ChainStore (MemoryBlockTables) can take it without importing ChainStore.
 */
export type StoreOp =
  | { type: 'put'; sublevel: Sub; key: Uint8Array; value: Uint8Array }
  | { type: 'del'; sublevel: Sub; key: Uint8Array };
