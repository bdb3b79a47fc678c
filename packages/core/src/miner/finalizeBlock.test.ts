import { RLP } from '@ethereumjs/rlp';
import { createTx } from '@ethereumjs/tx';
import { Address, bigIntToAddressBytes, bigIntToBytes, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import type { Kernel } from '../kernel/Kernel.js';
import { createKernel } from '../kernel/createKernel.js';
import type { PendingTx } from '../mempool/types.js';
import { setCode, setStorageAt } from '../dev/stateEdits.js';
import { Bloom, type RunTxResult, encodeReceipt } from '@ethereumjs/vm';
import { type AssembleInput, assembleBlock } from './assembleBlock.js';
import { hasDepositLog, receiptEncoding } from './finalizeBlock.js';

/** A signed EIP-1559 transfer of 5 wei from the first dev account to the second, as the pool holds it. */
function pendingTransfer(k: Kernel, nonce: number, gasLimit = 21_000n): PendingTx {
  const acct = k.chain.accounts[0];
  const tx = createTx(
    {
      type: 2,
      nonce: BigInt(nonce),
      to: k.chain.accounts[1].address,
      value: 5n,
      gasLimit,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
    },
    { common: k.chain.common },
  ).sign(acct.privateKey);
  return { tx, sender: acct.address, hash: tx.hash(), hashHex: bytesToHex(tx.hash()), seq: nonce };
}

/**
 * Assembles and commits a block of pendingTransfer(k, nonce) at `timestamp`, through the idle path
 * or (`force`) BlockBuilder.build(); with the assembled RLP, read before the commit sheds it.
 */
async function mineTransfer(
  k: Kernel,
  nonce: number,
  timestamp: bigint,
  force: boolean,
  withdrawals?: AssembleInput['withdrawals'],
  gasLimit?: bigint,
) {
  const ptx = pendingTransfer(k, nonce, gasLimit);
  return k.chain.exclusive(async () => {
    const res = await assembleBlock(k.chain, {
      txs: [ptx],
      timestamp,
      coinbase: k.options.chain.coinbase,
      gasLimit: k.options.chain.gasLimit,
      ...(withdrawals ? { withdrawals } : {}),
      forceBuilderBuild: force,
    });
    const rlp = res.stored.rlp;
    await k.chain.commitBlock(res.stored);
    return { ...res, rlp };
  });
}

// The idle-requests path (started by startBlock's system writes) must produce the very block
// BlockBuilder.initState + BlockBuilder.build() produce: the EIP-4788 and EIP-2935 writes are in
// the state root, at ring slots that move with each block's timestamp and number.
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
            const r = await mineTransfer(k, i, 1_700_000_100n + BigInt(i), force, [
              { index: BigInt(i), validatorIndex: 7n, address: k.chain.accounts[2].address, amount: 3n },
            ]);
            expect(r.included).toHaveLength(1);
            // The stored RLP is assembled from the received encodings: it must be the block's own.
            expect(bytesToHex(r.rlp as Uint8Array)).toBe(bytesToHex(r.stored.block.serialize()));
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

describe('the logs bloom of an idle block', () => {
  it('is the OR of its transactions’ blooms, as BlockBuilder.build() makes it, with and without logs', async () => {
    const opts = { chain: { genesisTimestamp: 1_700_000_000 } };
    const [a, b] = await Promise.all([createKernel(opts), createKernel(opts)]);
    try {
      // The recipient logs on every call: PUSH1 0, PUSH1 0, LOG0, STOP.
      for (const k of [a, b]) await setCode(k.chain, k.chain.accounts[1].address, hexToBytes('0x60006000a000'));
      const blooms: string[] = [];
      for (const [k, force] of [
        [a, false],
        [b, true],
      ] as const) {
        const logged = await mineTransfer(k, 0, 1_700_000_100n, force, undefined, 50_000n);
        expect(logged.stored.receipts[0].logs).toHaveLength(1);
        const bloom = logged.stored.block.header.logsBloom;
        expect(bloom.some((x) => x !== 0)).toBe(true);
        expect(bytesToHex(bloom)).toBe(bytesToHex(logged.stored.receipts[0].bloom));
        blooms.push(bytesToHex(bloom), bytesToHex(logged.stored.hash));
      }
      expect(blooms[0]).toBe(blooms[2]);
      expect(blooms[1]).toBe(blooms[3]);
      // A block without logs: all zero bits, the same block as build()'s.
      for (const k of [a, b]) await setCode(k.chain, k.chain.accounts[1].address, new Uint8Array(0));
      const plain = await mineTransfer(a, 1, 1_700_000_101n, false);
      const built = await mineTransfer(b, 1, 1_700_000_101n, true);
      expect(plain.stored.block.header.logsBloom.every((x) => x === 0)).toBe(true);
      expect(bytesToHex(plain.stored.hash)).toBe(bytesToHex(built.stored.hash));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

// startBlock leaves out the EIP-4788 root write when the root is zero and the slot is empty (an
// SSTORE of 0 over 0): a slot that holds a root must still be cleared, as BlockBuilder.initState does.
describe('startBlock over a ring slot that holds a beacon root', () => {
  it('clears it as BlockBuilder.initState does, and leaves an empty one empty', async () => {
    const opts = { chain: { hardfork: 'prague', genesisTimestamp: 1_700_000_000 } };
    const [a, b] = await Promise.all([createKernel(opts), createKernel(opts)]);
    const beaconRoots = new Address(hexToBytes('0x000f3df6d732807ef1319fb7b8bb8522d0beac02'));
    const timestamps = [1_700_000_100n, 1_700_000_101n];
    // The first block's root slot holds a root; the second block's is empty.
    const rootSlot = (ts: bigint) => setLengthLeft(bigIntToBytes((ts % 8191n) + 8191n), 32);
    try {
      for (const k of [a, b])
        await setStorageAt(k.chain, beaconRoots, rootSlot(timestamps[0]), new Uint8Array(32).fill(7));
      for (let i = 0; i < timestamps.length; i++) {
        const hashes: string[] = [];
        for (const [k, force] of [
          [a, false],
          [b, true],
        ] as const) {
          const r = await mineTransfer(k, i, timestamps[i], force);
          hashes.push(bytesToHex(r.stored.hash));
          const root = await k.chain.vm.stateManager.getStorage(beaconRoots, rootSlot(timestamps[i]));
          expect(root.length).toBe(0);
        }
        expect(hashes[0]).toBe(hashes[1]);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

/** Mines `data` sent from the first dev account as one block, through the idle path or build(). */
async function mineOne(
  k: Kernel,
  nonce: number,
  data: { to: Address; value: bigint; input: Uint8Array },
  force: boolean,
) {
  const acct = k.chain.accounts[0];
  // Legacy and EIP-1559 in turn: the block's encoding embeds each kind differently.
  const fees =
    nonce % 2 === 0
      ? { type: 0, gasPrice: 10n ** 10n }
      : { type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n };
  const tx = createTx(
    {
      ...fees,
      nonce: BigInt(nonce),
      to: data.to,
      value: data.value,
      data: data.input,
      gasLimit: 500_000n,
    },
    { common: k.chain.common },
  ).sign(acct.privateKey);
  const ptx: PendingTx = { tx, sender: acct.address, hash: tx.hash(), hashHex: bytesToHex(tx.hash()), seq: nonce };
  return k.chain.exclusive(async () => {
    const res = await assembleBlock(k.chain, {
      txs: [ptx],
      timestamp: 1_700_000_100n + BigInt(nonce),
      coinbase: k.options.chain.coinbase,
      gasLimit: k.options.chain.gasLimit,
      forceBuilderBuild: force,
    });
    // The assembled RLP, read before the commit sheds it (the store keeps its bytes).
    const rlp = res.stored.rlp;
    await k.chain.commitBlock(res.stored);
    return { ...res, rlp };
  });
}

describe('requestsAreIdle', () => {
  it('sees an EIP-7002 withdrawal request queued in a block after idle blocks (the block equals build()’s)', async () => {
    const opts = { chain: { hardfork: 'prague', genesisTimestamp: 1_700_000_000 } };
    const [a, b] = await Promise.all([createKernel(opts), createKernel(opts)]);
    try {
      const queue = new Address(bigIntToAddressBytes(a.chain.common.param('withdrawalRequestPredeployAddress')));
      const plain = { to: a.chain.accounts[1].address, value: 5n, input: new Uint8Array() };
      // 48-byte validator public key, 8-byte amount; the fee is 1 wei while the queue is empty.
      const request = { to: queue, value: 1n, input: new Uint8Array(56).fill(7) };
      const steps = [plain, plain, request, plain, plain];
      for (let i = 0; i < steps.length; i++) {
        const [ra, rb] = [await mineOne(a, i, steps[i], false), await mineOne(b, i, steps[i], true)];
        expect(ra.included).toHaveLength(1);
        expect(ra.stored.receipts[0].status).toBe(1);
        expect(bytesToHex(ra.stored.hash)).toBe(bytesToHex(rb.stored.hash));
        for (const r of [ra, rb]) {
          // The stored encoding and hash are the block's own, computed here independently.
          expect(bytesToHex(r.rlp as Uint8Array)).toBe(bytesToHex(r.stored.block.serialize()));
          expect(bytesToHex(r.stored.hash)).toBe(bytesToHex(keccak_256(RLP.encode(r.stored.block.header.raw()))));
        }
      }
      // The request block's requests hash is not the empty one of the blocks around it.
      const hashes = [2n, 3n].map(async (n) => (await a.chain.getBlock(n))?.block.header.requestsHash);
      const [before, withRequest] = await Promise.all(hashes);
      expect(bytesToHex(withRequest as Uint8Array)).not.toBe(bytesToHex(before as Uint8Array));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('receiptEncoding', () => {
  it('equals @ethereumjs/vm encodeReceipt for status and post-state receipts of every type', () => {
    const log: [Uint8Array, Uint8Array[], Uint8Array] = [
      new Uint8Array(20).fill(9),
      [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)],
      new Uint8Array(40).fill(3),
    ];
    const bitvector = new Uint8Array(256).fill(0x11);
    for (const type of [0, 1, 2, 3, 4]) {
      for (const cumulativeBlockGasUsed of [0n, 21_000n, 2n ** 53n + 5n]) {
        const receipts = [
          { status: 1 as const, cumulativeBlockGasUsed, bitvector, logs: [log] },
          { status: 0 as const, cumulativeBlockGasUsed, bitvector, logs: [] },
          { stateRoot: new Uint8Array(32).fill(7), cumulativeBlockGasUsed, bitvector, logs: [log, log] },
        ];
        for (const r of receipts) {
          const receipt = r as unknown as Parameters<typeof encodeReceipt>[0];
          expect(bytesToHex(receiptEncoding(receipt, type))).toBe(bytesToHex(encodeReceipt(receipt, type)));
        }
      }
    }
  });
});

describe('hasDepositLog', () => {
  it('answers as a scan of every log for the deposit contract (the blooms only skip receipts without it)', () => {
    const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: Hardfork.Prague });
    const deposit = hexToBytes(Mainnet.depositContractAddress as `0x${string}`);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const randomBytes = (n: number) => Uint8Array.from({ length: n }, () => rand(256));
    for (let round = 0; round < 300; round++) {
      const results = Array.from({ length: 1 + rand(3) }, () => {
        const bloom = new Bloom();
        const logs = Array.from({ length: rand(4) }, () => {
          // Now and then the deposit contract's log; now and then its address only as a topic (in the bloom, not a log of it).
          const address = rand(12) === 0 ? deposit : randomBytes(20);
          const topics = rand(6) === 0 ? [new Uint8Array(12).fill(0), deposit] : [randomBytes(32)];
          bloom.add(address);
          for (const t of topics) bloom.add(t);
          return [address, topics, randomBytes(8)];
        });
        return { receipt: { logs, bitvector: bloom.bitvector } };
      }) as unknown as RunTxResult[];
      const scanned = results.some((r) => r.receipt.logs.some((l) => bytesToHex(l[0]) === bytesToHex(deposit)));
      expect(hasDepositLog(common, results)).toBe(scanned);
    }
  });
});
