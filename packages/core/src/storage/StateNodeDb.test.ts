import { describe, expect, it } from 'vitest';
import { createDevCommon } from '../chain/chainCommon.js';
import { ChainStore } from './ChainStore.js';
import { memoryStorage } from './memoryStorage.js';
import { StateNodeDb } from './StateNodeDb.js';

async function memoryDb(): Promise<StateNodeDb> {
  const port = memoryStorage();
  await port.open();
  const db = new StateNodeDb(new ChainStore(port, createDevCommon(31337n, 'prague')));
  db.keepInMemory();
  return db;
}

const hash = 'ab'.repeat(31) + 'cd';
/** Code as @ethereumjs/statemanager keys it: a one-byte prefix before the code hash (33 bytes). */
const codeKey = `63${'12'.repeat(32)}`;

describe('StateNodeDb in memory', () => {
  it('serves buffered nodes, then the drained ones, under hex keys with or without 0x', async () => {
    const db = await memoryDb();
    await db.put(hash, Uint8Array.of(1, 2));
    expect(await db.get(hash)).toEqual(Uint8Array.of(1, 2));
    expect(db.drain()).toEqual([]);
    expect(db.pending).toBe(0);
    expect(await db.get(hash)).toEqual(Uint8Array.of(1, 2));
    expect(await db.get(`0x${hash}`)).toEqual(Uint8Array.of(1, 2));
    expect(await db.get(hash.toUpperCase())).toEqual(Uint8Array.of(1, 2));
    expect(await db.get('00'.repeat(32))).toBeUndefined();
  });

  it('keeps keys that are not 32-byte hashes (prefixed code hashes) too', async () => {
    const db = await memoryDb();
    const code = Uint8Array.of(0x60, 0x00, 0x56);
    await db.batch([{ type: 'put', key: codeKey, value: code }]);
    db.drain();
    expect(await db.get(codeKey)).toEqual(code);
    expect(await db.get(`${'zz'}${hash.slice(2)}`)).toBeUndefined();
  });

  it('forgets what a failed block buffered', async () => {
    const db = await memoryDb();
    await db.put(hash, Uint8Array.of(3));
    db.discard();
    db.drain();
    expect(await db.get(hash)).toBeUndefined();
  });
});
