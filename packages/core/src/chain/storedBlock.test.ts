import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/createKernel.js';
import { storedBlock } from './storedBlock.js';

// Every StoredBlock has all of these, in this order (one hidden class for V8, see storedBlock).
const FIELDS = [
  'block',
  'number',
  'hash',
  'senders',
  'receipts',
  'totalDifficulty',
  'size',
  'rlp',
  'callFrames',
  'preStateRoot',
];

describe('storedBlock', () => {
  it('writes every field, the absent ones as undefined', async () => {
    const k = await createKernel();
    try {
      const g = k.services.chain.genesis;
      const sb = storedBlock({ ...g, rlp: undefined });
      expect(Object.keys(sb)).toEqual(FIELDS);
      expect(sb.rlp).toBeUndefined();
      expect(sb.callFrames).toBeUndefined();
      expect(sb.preStateRoot).toBeUndefined();
      expect(sb.hash).toBe(g.hash);
    } finally {
      await k.close();
    }
  });

  it('gives genesis, a mined block and a block read back from the store the same fields in one order', async () => {
    const k = await createKernel();
    try {
      const { chain, miner } = k.services;
      await miner.mine();
      const mined = chain.head;
      expect(mined.number).toBe(1n);
      // Dropped from the store's cache, the block is decoded from its stored bytes.
      chain.store.forget(mined);
      const read = await chain.store.getBlock(1n);
      expect(read).not.toBe(mined);
      expect(bytesToHex(read?.hash ?? new Uint8Array())).toBe(bytesToHex(mined.hash));
      for (const sb of [chain.genesis, mined, read]) expect(Object.keys(sb ?? {})).toEqual(FIELDS);
    } finally {
      await k.close();
    }
  });
});
