import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { Wallet } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '../kernel/Kernel.js';
import { createKernel } from '../kernel/createKernel.js';
import { recentTxsOf } from './RecentTxs.js';
import { orderedMemoryPort } from '../storage/orderedMemoryPort.testing.js';

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.close();
});

async function mineTransfer(k: Kernel, nonce: number, value = 1n): Promise<Uint8Array> {
  const wallet = new Wallet(bytesToHex(k.chain.accounts[1].privateKey));
  const raw = hexToBytes(
    (await wallet.signTransaction({
      type: 2,
      chainId: 31337n,
      nonce,
      to: '0x00000000000000000000000000000000000000ab',
      value,
      gasLimit: 21_000n,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 1n,
    })) as `0x${string}`,
  );
  const tx = k.txs.decodeRaw(raw);
  const r = await k.txs.submit(tx, k.txs.recoverSender(tx));
  expect(r.mined).toBe(true);
  return r.hash;
}

/** What locate answers for each hash: block number and position, or null. */
async function located(k: Kernel, hashes: Uint8Array[]) {
  const recent = recentTxsOf(k.chain);
  return Promise.all(
    hashes.map(async (h) => {
      const loc = await recent.locate(h);
      return loc ? [loc.block.number, loc.index, bytesToHex(loc.block.block.transactions[loc.index].hash())] : null;
    }),
  );
}

describe('RecentTxs', () => {
  // A memory chain keeps nothing of its own and reads the chain's in-memory txs table: it must
  // answer what the followed lookup answers on an ordered store, through mining and a revert.
  it('locates mined transactions, and none a revert removed, alike on memory and ordered storage', async () => {
    const answers: unknown[] = [];
    for (const storage of [undefined, orderedMemoryPort()]) {
      const k = await createKernel(storage ? { storage } : {});
      kernels.push(k);
      recentTxsOf(k.chain);
      const hashes: Uint8Array[] = [];
      for (let n = 0; n < 3; n++) hashes.push(await mineTransfer(k, n));
      const unknown = new Uint8Array(32).fill(7);
      const before = await located(k, [...hashes, unknown]);
      expect(before.slice(0, 3)).toEqual(hashes.map((h, i) => [BigInt(i + 1), 0, bytesToHex(h)]));
      expect(before[3]).toBeNull();
      await k.chain.exclusive(() => k.chain.revertTo(1n));
      const after = await located(k, hashes);
      expect(after).toEqual([[1n, 0, bytesToHex(hashes[0])], null, null]);
      // Mined again after the revert: the same nonce, another transaction (another value) at block 2.
      const again = await mineTransfer(k, 1, 2n);
      expect(await located(k, [again, hashes[1]])).toEqual([[2n, 0, bytesToHex(again)], null]);
      answers.push({ before, after });
    }
    expect(answers[0]).toEqual(answers[1]);
  });
});
