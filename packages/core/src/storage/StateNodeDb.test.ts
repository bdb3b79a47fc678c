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

/** Nodes in the ordered store (as on LevelDB): the `state` sublevel, keyed by hash bytes. */
async function storeDb(): Promise<{ db: StateNodeDb; store: ChainStore }> {
  const port = memoryStorage();
  await port.open();
  const store = new ChainStore(port, createDevCommon(31337n, 'prague'));
  return { db: new StateNodeDb(store), store };
}

const bytesOf = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

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

  it("copies the trie's nodes (put by hash) into the node table at once, with nothing left to drain", async () => {
    const db = await memoryDb();
    const scratch = Uint8Array.of(0xc2, 0x20, 0x01);
    db.putNode(bytesOf(hash), scratch);
    scratch.fill(0);
    expect(db.pending).toBe(0);
    expect(db.getNode(bytesOf(hash))).toEqual(Uint8Array.of(0xc2, 0x20, 0x01));
    expect(db.drain()).toEqual([]);
    expect(db.getNode(bytesOf(hash))).toEqual(Uint8Array.of(0xc2, 0x20, 0x01));
  });

  it('forgets what a failed block buffered under hex keys', async () => {
    const db = await memoryDb();
    await db.put(hash, Uint8Array.of(3));
    db.discard();
    db.drain();
    expect(await db.get(hash)).toBeUndefined();
  });
});

describe('StateNodeDb by hash and by hex key', () => {
  for (const kind of ['memory', 'ordered store'] as const) {
    it(`serves a node put by hash under its hex key and the other way round (${kind})`, async () => {
      const { db, store } = kind === 'memory' ? { db: await memoryDb(), store: undefined } : await storeDb();
      const enc = Uint8Array.of(0xc2, 0x20, 0x01);
      const scratch = Uint8Array.from(enc);
      db.putNode(bytesOf(hash), scratch);
      // The db copied the bytes: the trie reuses its encoding buffer.
      scratch.fill(0);
      await db.put(codeKey, Uint8Array.of(0x60));
      expect(await db.get(hash)).toEqual(enc);
      expect(await db.getNode(bytesOf(hash))).toEqual(enc);
      const ops = db.drain();
      if (store) {
        // On disk: the node under its 32 hash bytes, code under its prefixed hash, as before.
        expect(ops.map((o) => (o.type === 'put' ? [Buffer.from(o.key).toString('hex'), o.value] : undefined))).toEqual([
          [hash, enc],
          [codeKey, Uint8Array.of(0x60)],
        ]);
        await store.write(ops);
      } else expect(ops).toEqual([]);
      expect(db.pending).toBe(0);
      expect(await db.getNode(bytesOf(hash))).toEqual(enc);
      expect(await db.get(`0x${hash}`)).toEqual(enc);
      expect(await db.get(codeKey)).toEqual(Uint8Array.of(0x60));
      expect(await db.getNode(new Uint8Array(32))).toBeUndefined();
    });
  }

  it('reads nodes an earlier process wrote to the ordered store', async () => {
    const { db, store } = await storeDb();
    await store.write([{ type: 'put', sublevel: store.state, key: bytesOf(hash), value: Uint8Array.of(7, 7) }]);
    expect(await db.getNode(bytesOf(hash))).toEqual(Uint8Array.of(7, 7));
    expect(await new StateNodeDb(store).get(hash)).toEqual(Uint8Array.of(7, 7));
  });
});
