import { MemoryLevel } from 'memory-level';
import type { StoragePort } from './StoragePort.js';

/**
 * For tests: the same database as memory storage, declared as an ordered store (as LevelDB is),
 * so every sublevel stays in memory-level and the code paths of a persistent chain run.
 */
export function orderedMemoryPort(): StoragePort {
  const db = new MemoryLevel<Uint8Array, Uint8Array>({
    keyEncoding: 'view',
    valueEncoding: 'view',
    storeEncoding: 'view',
  });
  return { kind: 'level', location: ':ordered:', db, open: () => db.open(), close: () => db.close() };
}
