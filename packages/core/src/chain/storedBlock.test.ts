import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createTx } from '@ethereumjs/tx';
import { createKernel } from '../kernel/createKernel.js';
import type { StoredBlock } from './types.js';
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

  it("sheds a written block's call frames and RLP after its listeners, and readers get them back from storage", async () => {
    const k = await createKernel();
    try {
      const { chain } = k.services;
      const wallet = chain.accounts[1];
      const seen: { frames: unknown; rlp: string | undefined }[] = [];
      chain.events.on('block', (sb: StoredBlock) =>
        seen.push({ frames: structuredClone(sb.callFrames), rlp: sb.rlp && bytesToHex(sb.rlp) }),
      );
      const tx = createTx(
        {
          type: 2,
          nonce: 0,
          to: `0x${'ab'.repeat(20)}`,
          value: 5n,
          gasLimit: 21_000n,
          maxFeePerGas: 10n ** 11n,
          chainId: 31337n,
        },
        { common: chain.common },
      ).sign(wallet.privateKey);
      const r = await k.txs.submit(tx, k.txs.recoverSender(tx));
      expect(r.mined).toBe(true);
      const head = chain.head;
      // The block listener saw both (frames are captured by default).
      expect(seen).toHaveLength(1);
      expect(seen[0].frames).toHaveLength(1);
      expect(seen[0].rlp).toBe(bytesToHex(head.block.serialize()));
      // The cached block no longer holds them, with its fields (and hidden class) unchanged.
      expect(head.callFrames).toBeUndefined();
      expect(head.rlp).toBeUndefined();
      expect(Object.keys(head)).toEqual(FIELDS);
      // Readers get the same frames from storage (kept on the cached block from then on).
      expect(await chain.store.getCallFrames(head)).toEqual(seen[0].frames);
      expect(head.callFrames).toEqual(seen[0].frames);
    } finally {
      await k.close();
    }
  });
});
