/**
 * Transaction validation, pool behaviour and execution/filter errors, each with geth's code and
 * wording. A rejected transaction must leave no trace: pool size, head and sender nonce unchanged.
 */
import { type Kernel, RpcRequestError } from '@ashlar/core';
import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util';
import { createNode } from 'ashlar';
import { AbiCoder, Interface } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';

type Hex = `0x${string}`;

const GWEI = 10n ** 9n;
const counter = loadArtifact('Counter');
const counterAbi = new Interface(counter.abi);
const FAIL_REASON = 'Counter: failed on purpose';
/** ABI encoding of Error("Counter: failed on purpose"), built by hand from its selector. */
const FAIL_DATA = `0x08c379a0${AbiCoder.defaultAbiCoder().encode(['string'], [FAIL_REASON]).slice(2)}`;
/** A key nobody funded. */
const POOR_KEY = hexToBytes(`0x${'42'.repeat(32)}`);

interface TxFields {
  nonce?: bigint;
  to?: Hex;
  value?: bigint;
  gasLimit?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  data?: Hex;
}

function call<T = unknown>(kernel: Kernel, method: string, params: unknown[] = []): Promise<T> {
  return kernel.request<T>({ method, params });
}

/** The error kernel.request throws (fails the test when it resolves). */
async function rpcError(kernel: Kernel, method: string, params: unknown[]): Promise<RpcRequestError> {
  try {
    const result = await call(kernel, method, params);
    throw new Error(`${method} succeeded with ${JSON.stringify(result)}, expected an error`);
  } catch (e) {
    if (!(e instanceof RpcRequestError)) throw e;
    return e;
  }
}

async function nonceOf(kernel: Kernel, address: string, tag = 'latest'): Promise<bigint> {
  return BigInt(await call<Hex>(kernel, 'eth_getTransactionCount', [address, tag]));
}

/** A signed EIP-1559 transaction from dev account `from` (or `key`), defaults filled. */
async function signed(
  kernel: Kernel,
  fields: TxFields,
  opts: { from?: number; key?: Uint8Array; common?: TypedTransaction['common'] } = {},
): Promise<TypedTransaction> {
  const acct = kernel.chain.accounts[opts.from ?? 0];
  const key = opts.key ?? acct.privateKey;
  const nonce = fields.nonce ?? (opts.key ? 0n : await nonceOf(kernel, acct.address.toString(), 'pending'));
  return createTx(
    {
      type: 2,
      nonce,
      to: fields.to ?? kernel.chain.accounts[9].address.toString(),
      value: fields.value ?? 1n,
      gasLimit: fields.gasLimit ?? 21_000n,
      maxFeePerGas: fields.maxFeePerGas ?? 10n * GWEI,
      maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? GWEI,
      data: fields.data ?? '0x',
    },
    { common: opts.common ?? kernel.chain.common },
  ).sign(key);
}

const rawOf = (tx: TypedTransaction): Hex => bytesToHex(tx.serialize()) as Hex;

interface Trace {
  pool: number;
  head: bigint;
  nonce: bigint;
  pendingNonce: bigint;
}

async function trace(kernel: Kernel, address: string): Promise<Trace> {
  return {
    pool: kernel.mempool.size,
    head: kernel.chain.head.number,
    nonce: await nonceOf(kernel, address, 'latest'),
    pendingNonce: await nonceOf(kernel, address, 'pending'),
  };
}

/** Sends `raw`, expects -32000 with `message`, and checks that nothing changed. */
async function expectRejected(kernel: Kernel, raw: Hex, message: RegExp, sender: string, code = -32000) {
  const before = await trace(kernel, sender);
  const e = await rpcError(kernel, 'eth_sendRawTransaction', [raw]);
  expect({ code: e.code, message: e.message }).toEqual({ code, message: expect.stringMatching(message) });
  expect(await trace(kernel, sender)).toEqual(before);
  return e;
}

describe('transaction validation (automine)', () => {
  let kernel: Kernel;
  let sender: string;

  beforeAll(async () => {
    kernel = await createNode();
    sender = kernel.chain.accounts[0].address.toString();
    // one mined transaction, so that nonce 0 is spent
    await call(kernel, 'eth_sendRawTransaction', [rawOf(await signed(kernel, {}))]);
    expect(await nonceOf(kernel, sender)).toBe(1n);
  });

  afterAll(async () => {
    await kernel?.close();
  });

  it('nonce too low', async () => {
    const tx = await signed(kernel, { nonce: 0n, value: 2n });
    await expectRejected(kernel, rawOf(tx), /^nonce too low/, sender);
  });

  it('insufficient funds', async () => {
    const tx = await signed(kernel, { value: 1n }, { key: POOR_KEY });
    const poor = tx.getSenderAddress().toString();
    await expectRejected(kernel, rawOf(tx), /^insufficient funds for gas \* price \+ value/, poor);
    expect(await trace(kernel, sender)).toMatchObject({ pool: 0 });
  });

  it('intrinsic gas too low (gas 20000)', async () => {
    const tx = await signed(kernel, { gasLimit: 20_000n });
    await expectRejected(kernel, rawOf(tx), /^intrinsic gas too low/, sender);
  });

  it('gas above the block gas limit', async () => {
    // Below EIP-7825's per-transaction cap (2^24), so only the block gas limit applies.
    const small = await createNode({ chain: { gasLimit: 10_000_000n } });
    try {
      const from = small.chain.accounts[0].address.toString();
      const tx = await signed(small, { gasLimit: 10_000_001n });
      await expectRejected(small, rawOf(tx), /exceeds block gas limit/, from);
      // exactly the limit is fine
      const ok = await signed(small, { gasLimit: 10_000_000n });
      await call(small, 'eth_sendRawTransaction', [rawOf(ok)]);
    } finally {
      await small.close();
    }
  });

  it('fee cap below the base fee', async () => {
    const tx = await signed(kernel, { maxFeePerGas: 1n, maxPriorityFeePerGas: 0n });
    await expectRejected(kernel, rawOf(tx), /^max fee per gas less than block base fee/, sender);
  });

  it('wrong chain id', async () => {
    const other = createCustomCommon({ chainId: 1 }, Mainnet, { hardfork: kernel.chain.common.hardfork() });
    const tx = await signed(kernel, {}, { common: other });
    expect(tx.common.chainId()).toBe(1n);
    await expectRejected(kernel, rawOf(tx), /invalid chain id/, sender);
  });

  it('bad signature (tampered r and s)', async () => {
    const tx = await signed(kernel, {});
    const fields = tx.raw() as Uint8Array[];
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a63bbfd25e8cd0364141n;
    const encode = (f: Uint8Array[]): Hex => bytesToHex(concatBytes(new Uint8Array([2]), RLP.encode(f))) as Hex;
    // r ≥ the curve order: no public key can be recovered
    const badR = [...fields];
    badR[10] = bigIntToUnpaddedBytes(n + 5n);
    await expectRejected(kernel, encode(badR), /invalid (sender|transaction v, r, s)/, sender);
    // s above n/2 (EIP-2 malleable form)
    const s = BigInt(bytesToHex(fields[11]));
    const highS = [...fields];
    highS[11] = bigIntToUnpaddedBytes(n - s);
    await expectRejected(kernel, encode(highS), /invalid (sender|transaction v, r, s)/, sender);
    // s = 0
    const zeroS = [...fields];
    zeroS[11] = new Uint8Array();
    await expectRejected(kernel, encode(zeroS), /invalid (sender|transaction v, r, s)/, sender);
  });

  it('oversized data (> 128 KiB)', async () => {
    const data = bytesToHex(new Uint8Array(128 * 1024 + 1).fill(1)) as Hex;
    const tx = await signed(kernel, { data, gasLimit: 3_000_000n });
    await expectRejected(kernel, rawOf(tx), /^oversized data/, sender);
  });

  it('unsupported transaction type (0x05…)', async () => {
    const raw = bytesToHex(
      concatBytes(new Uint8Array([5]), RLP.encode([new Uint8Array([1]), new Uint8Array()])),
    ) as Hex;
    await expectRejected(kernel, raw, /^transaction type not supported/, sender);
  });

  it('a nonce gap is accepted but queued; filling the gap mines both', async () => {
    const before = await trace(kernel, sender);
    const next = before.nonce;
    const gapped = await signed(kernel, { nonce: next + 1n });
    const gappedHash = await call<Hex>(kernel, 'eth_sendRawTransaction', [rawOf(gapped)]);
    expect(gappedHash).toBe(bytesToHex(gapped.hash()));
    expect(kernel.mempool.size).toBe(before.pool + 1);
    // queued, not mined: no block is built for it (soft, so the rest of the flow is still checked)
    expect.soft(kernel.chain.head.number, 'head after a gapped transaction').toBe(before.head);
    expect(await call(kernel, 'eth_getTransactionReceipt', [gappedHash])).toBeNull();
    expect(await nonceOf(kernel, sender)).toBe(next);

    const filler = await signed(kernel, { nonce: next });
    const fillerHash = await call<Hex>(kernel, 'eth_sendRawTransaction', [rawOf(filler)]);
    const r1 = await call<{ status: Hex } | null>(kernel, 'eth_getTransactionReceipt', [fillerHash]);
    const r2 = await call<{ status: Hex } | null>(kernel, 'eth_getTransactionReceipt', [gappedHash]);
    expect(r1?.status).toBe('0x1');
    expect(r2?.status).toBe('0x1');
    expect(kernel.mempool.size).toBe(0);
    expect(await nonceOf(kernel, sender)).toBe(next + 2n);
  });
});

describe('pool behaviour (automine off)', () => {
  let kernel: Kernel;
  let sender: string;

  beforeAll(async () => {
    kernel = await createNode({ mining: { automine: false } });
    sender = kernel.chain.accounts[0].address.toString();
  });

  afterAll(async () => {
    await kernel?.close();
  });

  it('already known', async () => {
    const tx = await signed(kernel, { value: 77n });
    const raw = rawOf(tx);
    await call(kernel, 'eth_sendRawTransaction', [raw]);
    await expectRejected(kernel, raw, /^already known/, sender);
    await call(kernel, 'evm_mine');
    expect(kernel.mempool.size).toBe(0);
  });

  it('replacement underpriced below a 10% bump; a 10% bump replaces', async () => {
    const nonce = await nonceOf(kernel, sender, 'pending');
    const first = await signed(kernel, { nonce, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    const firstHash = await call<Hex>(kernel, 'eth_sendRawTransaction', [rawOf(first)]);
    expect(kernel.mempool.size).toBe(1);

    const cheap = await signed(kernel, {
      nonce,
      value: 2n,
      maxFeePerGas: 10_900_000_000n,
      maxPriorityFeePerGas: 2_180_000_000n,
    });
    await expectRejected(kernel, rawOf(cheap), /^replacement transaction underpriced/, sender);
    // bumping only one of the two fee fields is not enough either
    const half = await signed(kernel, { nonce, value: 3n, maxFeePerGas: 11n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    await expectRejected(kernel, rawOf(half), /^replacement transaction underpriced/, sender);
    expect(await call<{ hash: Hex } | null>(kernel, 'eth_getTransactionByHash', [firstHash])).toMatchObject({
      hash: firstHash,
    });

    const bumped = await signed(kernel, {
      nonce,
      value: 4n,
      maxFeePerGas: 11n * GWEI,
      maxPriorityFeePerGas: 2_200_000_000n,
    });
    const bumpedHash = await call<Hex>(kernel, 'eth_sendRawTransaction', [rawOf(bumped)]);
    expect(kernel.mempool.size).toBe(1);
    expect(await call(kernel, 'eth_getTransactionByHash', [firstHash])).toBeNull();
    expect(await call(kernel, 'eth_getTransactionByHash', [bumpedHash])).toMatchObject({ hash: bumpedHash });

    await call(kernel, 'evm_mine');
    expect(await call(kernel, 'eth_getTransactionReceipt', [bumpedHash])).toMatchObject({ status: '0x1' });
    expect(await call(kernel, 'eth_getTransactionReceipt', [firstHash])).toBeNull();
    expect(await nonceOf(kernel, sender)).toBe(nonce + 1n);
  });

  it('a pending transaction has null block fields and no receipt until mined', async () => {
    const latest = await nonceOf(kernel, sender, 'latest');
    const head = kernel.chain.head.number;
    const tx = await signed(kernel, { value: 5n });
    const hash = await call<Hex>(kernel, 'eth_sendRawTransaction', [rawOf(tx)]);
    expect(kernel.chain.head.number).toBe(head);

    const pending = await call<Record<string, unknown>>(kernel, 'eth_getTransactionByHash', [hash]);
    expect(pending).toMatchObject({ hash, blockHash: null, blockNumber: null, transactionIndex: null });
    expect(await call(kernel, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await nonceOf(kernel, sender, 'pending')).toBe(latest + 1n);
    expect(await nonceOf(kernel, sender, 'latest')).toBe(latest);

    expect(await call(kernel, 'evm_mine')).toBe('0x0');
    expect(kernel.chain.head.number).toBe(head + 1n);
    const mined = await call<Record<string, unknown>>(kernel, 'eth_getTransactionByHash', [hash]);
    expect(mined.blockNumber).toBe(`0x${(head + 1n).toString(16)}`);
    expect(mined.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(mined.transactionIndex).toBe('0x0');
    expect(await call(kernel, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' });
    expect(await nonceOf(kernel, sender, 'latest')).toBe(latest + 1n);
  });
});

describe('execution errors', () => {
  let kernel: Kernel;
  let contract: Hex;
  let from: string;

  beforeAll(async () => {
    kernel = await createNode();
    from = kernel.chain.accounts[0].address.toString();
    const hash = await call<Hex>(kernel, 'eth_sendTransaction', [{ from, input: counter.bytecode, gas: '0x200000' }]);
    const receipt = await call<{ contractAddress: Hex }>(kernel, 'eth_getTransactionReceipt', [hash]);
    contract = receipt.contractAddress;
  });

  afterAll(async () => {
    await kernel?.close();
  });

  it('eth_call revert: code 3, revert bytes as data, reason in the message', async () => {
    const e = await rpcError(kernel, 'eth_call', [
      { from, to: contract, data: counterAbi.encodeFunctionData('fail') },
      'latest',
    ]);
    expect(e.code).toBe(3);
    expect(e.message).toBe(`execution reverted: ${FAIL_REASON}`);
    expect(e.data).toBe(FAIL_DATA);
  });

  it('eth_call revert over the envelope carries the same error object', async () => {
    const r = await kernel.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: contract, data: counterAbi.encodeFunctionData('fail') }, 'latest'],
    });
    expect(r).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: 3, message: `execution reverted: ${FAIL_REASON}`, data: FAIL_DATA },
    });
  });

  it('eth_estimateGas on a reverting call: code 3', async () => {
    const e = await rpcError(kernel, 'eth_estimateGas', [
      { from, to: contract, data: counterAbi.encodeFunctionData('fail') },
    ]);
    expect(e.code).toBe(3);
    expect(e.message).toBe(`execution reverted: ${FAIL_REASON}`);
    expect(e.data).toBe(FAIL_DATA);
  });
});

describe('eth_getLogs limits', () => {
  let kernel: Kernel;

  beforeAll(async () => {
    kernel = await createNode({ rpc: { logsMaxBlockRange: 5 } });
    for (let i = 0; i < 8; i++) await call(kernel, 'evm_mine');
  });

  afterAll(async () => {
    await kernel?.close();
  });

  it('accepts a range of exactly the limit', async () => {
    expect(await call(kernel, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5' }])).toEqual([]);
  });

  it('rejects a range over the limit with a message naming it', async () => {
    const e = await rpcError(kernel, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x8' }]);
    expect(e.message).toMatch(/\b5\b/);
    expect(e.code).not.toBe(-32603);
  });

  it('rejects fromBlock > toBlock with -32602', async () => {
    const e = await rpcError(kernel, 'eth_getLogs', [{ fromBlock: '0x4', toBlock: '0x2' }]);
    expect(e.code).toBe(-32602);
  });

  it('rejects blockHash together with fromBlock with -32602', async () => {
    const head = await call<{ hash: Hex }>(kernel, 'eth_getBlockByNumber', ['latest', false]);
    const e = await rpcError(kernel, 'eth_getLogs', [{ blockHash: head.hash, fromBlock: '0x1' }]);
    expect(e.code).toBe(-32602);
    const e2 = await rpcError(kernel, 'eth_getLogs', [{ blockHash: head.hash, toBlock: 'latest' }]);
    expect(e2.code).toBe(-32602);
  });
});
