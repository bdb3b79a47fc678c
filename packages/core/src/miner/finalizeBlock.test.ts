import { createTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/createKernel.js';
import type { PendingTx } from '../mempool/types.js';
import { assembleBlock } from './assembleBlock.js';

// The idle-requests path must produce the very block BlockBuilder.build() produces.
describe('finalizeIdleBlock', () => {
  for (const hardfork of ['shanghai', 'cancun', 'prague', 'osaka', 'bpo2']) {
    it(`builds the same block as BlockBuilder.build() on ${hardfork}`, async () => {
      const opts = { chain: { hardfork, genesisTimestamp: 1_700_000_000 } };
      const [a, b] = await Promise.all([createKernel(opts), createKernel(opts)]);
      try {
        for (let i = 0; i < 3; i++) {
          const hashes: string[] = [];
          for (const [k, force] of [
            [a, false],
            [b, true],
          ] as const) {
            const acct = k.chain.accounts[0];
            const tx = createTx(
              {
                type: 2,
                nonce: BigInt(i),
                to: k.chain.accounts[1].address,
                value: 5n,
                gasLimit: 21_000n,
                maxFeePerGas: 10n ** 10n,
                maxPriorityFeePerGas: 1n,
              },
              { common: k.chain.common },
            ).sign(acct.privateKey);
            const ptx: PendingTx = {
              tx,
              sender: acct.address,
              hash: tx.hash(),
              hashHex: bytesToHex(tx.hash()),
              seq: i,
            };
            const r = await k.chain.exclusive(async () => {
              const res = await assembleBlock(k.chain, {
                txs: [ptx],
                timestamp: 1_700_000_100n + BigInt(i),
                coinbase: k.options.chain.coinbase,
                gasLimit: k.options.chain.gasLimit,
                withdrawals: [
                  { index: BigInt(i), validatorIndex: 7n, address: k.chain.accounts[2].address, amount: 3n },
                ],
                forceBuilderBuild: force,
              });
              await k.chain.commitBlock(res.stored);
              return res;
            });
            expect(r.included).toHaveLength(1);
            // The stored RLP is assembled from the received encodings: it must be the block's own.
            expect(bytesToHex(r.stored.rlp as Uint8Array)).toBe(bytesToHex(r.stored.block.serialize()));
            hashes.push(bytesToHex(r.stored.hash));
          }
          expect(hashes[0]).toBe(hashes[1]);
        }
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  }
});
