import { MemoryLevel } from 'memory-level';
import type { StoragePort } from './StoragePort.js';

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
    async open() {
      await db.open();
    },
    async close() {
      await db.close();
    },
  };
}
