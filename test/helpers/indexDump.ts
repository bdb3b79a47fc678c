import { INDEX_TABLES, type IndexService, type StoragePort, memoryStorage } from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';

/** Every entry of every index table, as hex, for comparing two indexes exactly. */
export async function dumpIndex(index: IndexService): Promise<Record<string, string[]>> {
  // The index follows the chain in batches: bring it to the head, as every query does.
  await index.sync();
  const out: Record<string, string[]> = {};
  for (const t of INDEX_TABLES) {
    const rows = await index.store.range(t, { prefix: new Uint8Array(0), reverse: false, limit: 10_000_000 });
    out[t] = rows.map((e) => `${bytesToHex(e.key)}=${bytesToHex(e.value)}`);
  }
  return out;
}

/**
 * memory-level storage that does not say it is memory: the chain and its index then use the
 * LevelDB code paths (the index in sublevels of the chain's batch), without touching disk.
 */
export function levelLikeMemoryStorage(): StoragePort {
  const inner = memoryStorage();
  return {
    kind: 'level',
    location: ':memory-level:',
    db: inner.db,
    open: () => inner.open(),
    close: () => inner.close(),
  };
}
