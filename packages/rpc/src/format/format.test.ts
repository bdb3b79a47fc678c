import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RawLog, StoredBlock, StoredReceipt } from '@ashlar/core';
import { type Block, createBlock } from '@ethereumjs/block';
import { Common, Mainnet } from '@ethereumjs/common';
import { createTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, generateAddress, hexToBytes } from '@ethereumjs/util';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type RpcBlock,
  type RpcTransaction,
  toRpcBlock,
  toRpcBlockLogs,
  toRpcLog,
  toRpcPendingBlock,
  toRpcReceipt,
  toRpcReceipts,
  toRpcTransaction,
} from './index.js';

// ---------------------------------------------------------------------------------------------
// fixtures: real signed transactions in real blocks

/** Vendored execution-apis data (test/fixtures/execution-apis/SOURCE.md). */
const CONFORMANCE = fileURLToPath(new URL('../../../../test/fixtures/execution-apis', import.meta.url));
// blob txs need a KZG backend on the Common; it is only called for txs carrying blobs, so a stub will do
const stubKzg = {} as NonNullable<NonNullable<ConstructorParameters<typeof Common>[0]['customCrypto']>['kzg']>;
const prague = new Common({
  chain: Mainnet,
  hardfork: 'prague',
  customCrypto: { kzg: stubKzg },
});
const homestead = new Common({ chain: Mainnet, hardfork: 'homestead' });

const KEY = hexToBytes(`0x${'11'.repeat(32)}`);
const TO = '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df';
const AUTH_TARGET = '0x8c2319620d7c348bb4e2b2a0b230c81f310e9561';
const SLOT0 = `0x${'00'.repeat(32)}` as const;
const SLOT1 = '0x95104e47e1982aba633477f377b1511396c3fe83600224bcb0c78949be705b33' as const;
const BLOB_HASH = `0x01${'5a'.repeat(31)}` as const;
const BASE_FEE = 0x56a9213n;

const sign = (tx: TypedTransaction) => tx.sign(KEY);

const legacyTx = sign(
  createTx(
    {
      type: 0,
      nonce: 0,
      gasPrice: 7,
      gasLimit: 0x13a54,
      data: '0x600d3803',
      value: 0,
    },
    { common: prague },
  ),
); // contract creation, EIP-155
const accessListTx = sign(
  createTx(
    {
      type: 1,
      nonce: 1,
      gasPrice: 0x56a9214n,
      gasLimit: 100000,
      to: TO,
      value: 2,
      data: '0x0e394e7c',
      accessList: [{ address: TO, storageKeys: [SLOT0, SLOT1] }],
    },
    { common: prague },
  ),
);
const dynamicTx = sign(
  createTx(
    {
      type: 2,
      nonce: 2,
      maxFeePerGas: 0x3b9aca01n,
      maxPriorityFeePerGas: 1,
      gasLimit: 100000,
      to: TO,
      value: 2,
      data: '0x1ee8f6de',
    },
    { common: prague },
  ),
);
const blobTx = sign(
  createTx(
    {
      type: 3,
      nonce: 3,
      maxFeePerGas: 0x813f23cn,
      maxPriorityFeePerGas: 1,
      maxFeePerBlobGas: 0x20000n,
      gasLimit: 100000,
      to: TO,
      value: 3,
      data: '0x29db6825',
      blobVersionedHashes: [BLOB_HASH],
      accessList: [{ address: TO, storageKeys: [SLOT0] }],
    },
    { common: prague },
  ),
);
const setCodeTx = sign(
  createTx(
    {
      type: 4,
      nonce: 4,
      maxFeePerGas: 0x56a9214n,
      maxPriorityFeePerGas: 1,
      gasLimit: 0xb3b0,
      to: '0x0000000000000000000000000000000000000000',
      value: 0,
      authorizationList: [
        {
          chainId: '0x1',
          address: AUTH_TARGET,
          nonce: '0x0',
          yParity: '0x0',
          r: '0xf17d59102e9ebed035d1bd77bc668b170eb1d38edef6e7d971857d85781d68fe',
          s: '0x193dbdc8dea2fc194da75febbd4de9689b625eecd1e4ca30e27b45339af22572',
        },
      ],
    },
    { common: prague },
  ),
);
const TXS = [legacyTx, accessListTx, dynamicTx, blobTx, setCodeTx];

const topic = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);
const log = (n: number): RawLog => [hexToBytes(TO), [topic(0x656d6974), topic(n)], topic(n)];
const bloom = () => new Uint8Array(256);

function receipt(
  gasUsed: bigint,
  cumulative: bigint,
  logs: RawLog[],
  price: bigint,
  extra: Partial<StoredReceipt> = {},
) {
  return {
    status: 1,
    cumulativeGasUsed: cumulative,
    gasUsed,
    logs,
    bloom: bloom(),
    effectiveGasPrice: price,
    ...extra,
  } as StoredReceipt;
}

function stored(block: Block, receipts: StoredReceipt[], totalDifficulty = 0x20000n): StoredBlock {
  return {
    block,
    number: block.header.number,
    hash: block.hash(),
    senders: block.transactions.map((t) => t.getSenderAddress()),
    receipts,
    totalDifficulty,
    size: block.serialize().length,
  };
}

const WITHDRAWAL_ADDR = '0x3ae75c08b4c907eb63a8960c45b86e1e9ab6123c';

function pragueBlock(): StoredBlock {
  const block = createBlock(
    {
      header: {
        number: 0x2d,
        timestamp: 0x1c2,
        gasLimit: 0xbebc200,
        baseFeePerGas: BASE_FEE,
        parentHash: hexToBytes(`0x${'a3'.repeat(32)}`),
        blobGasUsed: 0x20000n,
        excessBlobGas: 0n,
        parentBeaconBlockRoot: hexToBytes(`0x${'4b'.repeat(32)}`),
      },
      transactions: TXS,
      withdrawals: [{ index: 0, validatorIndex: 5, address: WITHDRAWAL_ADDR, amount: 100 }],
    },
    { common: prague },
  );
  const receipts = [
    receipt(0x102d3n, 0x102d3n, [], 7n),
    receipt(0xca9cn, 0x1cd6fn, [log(1), log(2)], 0x56a9214n),
    receipt(0xca9cn, 0x29a0bn, [], BASE_FEE + 1n),
    receipt(0xca9cn, 0x366a7n, [log(3)], BASE_FEE + 1n, {
      blobGasUsed: 0x20000n,
      blobGasPrice: 1n,
    }),
    receipt(0x8fc0n, 0x3f667n, [log(4), log(5)], BASE_FEE + 1n),
  ];
  return stored(block, receipts, 0x4000000n);
}

// a PoW-era block: unprotected legacy tx (v = 27/28), an uncle, no base fee
function homesteadStyleBlock(): StoredBlock {
  const unprotected = createTx(
    {
      type: 0,
      nonce: 0x3f,
      gasPrice: 1,
      gasLimit: 0x5208,
      to: '0xc7b99a164efd027a93f147376cc7da7c67c6bbe0',
      value: 1,
    },
    { common: homestead },
  ).sign(KEY);
  const uncle = {
    number: 2,
    difficulty: 0x20000n,
    timestamp: 0x14,
    gasLimit: 0x5f5e100,
  };
  const block = createBlock(
    {
      header: {
        number: 3,
        timestamp: 0x1e,
        difficulty: 0x20100n,
        gasLimit: 0x5f5e100,
        baseFeePerGas: undefined,
      },
      transactions: [unprotected],
      uncleHeaders: [uncle],
    },
    { common: homestead },
  );
  const root = hexToBytes(`0x09ebe9c3ee77cd8d23faf37c62cf702b3c00e71dcadbef4d21355f35921b49ca`);
  return stored(block, [
    {
      root,
      cumulativeGasUsed: 0x5208n,
      gasUsed: 0x5208n,
      logs: [],
      bloom: bloom(),
      effectiveGasPrice: 1n,
    },
  ]);
}

// ---------------------------------------------------------------------------------------------
// conformance helpers: field sets from the execution-apis vectors, schemas from its OpenRPC result schemas

function vectorResult(path: string): unknown {
  const line = readFileSync(`${CONFORMANCE}/tests/${path}`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('<< '));
  if (!line) throw new Error(`no response in ${path}`);
  return JSON.parse(line.slice(3)).result;
}
const keysOf = (o: unknown) => Object.keys(o as object).sort();

let ajv: Ajv2019;
const validators = new Map<string, ValidateFunction>();
function validate(method: string, value: unknown): void {
  let v = validators.get(method);
  if (!v) {
    const spec = JSON.parse(readFileSync(`${CONFORMANCE}/openrpc-results.json`, 'utf8')) as {
      methods: { name: string; result: { schema: object } }[];
    };
    for (const m of spec.methods) {
      if (
        !validators.has(m.name) &&
        /^eth_get(BlockByNumber|TransactionByHash|TransactionReceipt|Logs|BlockReceipts)$/.test(m.name)
      ) {
        validators.set(m.name, ajv.compile(m.result.schema));
      }
    }
    v = validators.get(method);
    if (!v) throw new Error(`no schema for ${method}`);
  }
  const ok = v(value);
  if (!ok) throw new Error(`${method} result fails the schema: ${ajv.errorsText(v.errors)}`);
}

beforeAll(() => {
  ajv = new Ajv2019({ strict: false, allErrors: true });
});

// ---------------------------------------------------------------------------------------------

describe('toRpcTransaction', () => {
  const sb = pragueBlock();
  const h = sb.block.header;
  const loc = (index: number) => ({
    blockHash: sb.hash,
    blockNumber: sb.number,
    index,
    blockTimestamp: h.timestamp,
    baseFee: h.baseFeePerGas,
  });
  const mined = (i: number) => toRpcTransaction(sb.block.transactions[i], sb.senders[i], loc(i));

  it('legacy EIP-155 contract creation', () => {
    const t = mined(0);
    expect(t).toEqual({
      blockHash: bytesToHex(sb.hash),
      blockNumber: '0x2d',
      blockTimestamp: '0x1c2',
      from: sb.senders[0].toString(),
      gas: '0x13a54',
      gasPrice: '0x7',
      hash: bytesToHex(legacyTx.hash()),
      input: '0x600d3803',
      nonce: '0x0',
      to: null,
      transactionIndex: '0x0',
      value: '0x0',
      type: '0x0',
      chainId: '0x1',
      v: `0x${(legacyTx.v ?? 0n).toString(16)}`,
      r: `0x${(legacyTx.r ?? 0n).toString(16)}`,
      s: `0x${(legacyTx.s ?? 0n).toString(16)}`,
    });
    expect(legacyTx.v === 37n || legacyTx.v === 38n).toBe(true);
    // field set of a mined EIP-155 legacy tx in the vectors (the latest block's tx)
    const latest = vectorResult('eth_getBlockByNumber/get-latest.io') as {
      transactions: RpcTransaction[];
    };
    expect(keysOf(t)).toEqual(keysOf(latest.transactions[0]));
  });

  it('access-list tx', () => {
    const t = mined(1);
    expect(t.gasPrice).toBe('0x56a9214');
    expect(t.accessList).toEqual([{ address: TO, storageKeys: [SLOT0, SLOT1] }]);
    expect(t.chainId).toBe('0x1');
    expect(t.yParity).toBe(t.v);
    expect(['0x0', '0x1']).toContain(t.v);
    expect(keysOf(t)).toEqual(keysOf(vectorResult('eth_getTransactionByHash/get-access-list.io')));
  });

  it('dynamic-fee tx: gasPrice is the effective price once mined', () => {
    const t = mined(2);
    expect(t.maxFeePerGas).toBe('0x3b9aca01');
    expect(t.maxPriorityFeePerGas).toBe('0x1');
    expect(t.gasPrice).toBe(`0x${(BASE_FEE + 1n).toString(16)}`);
    expect(keysOf(t)).toEqual(keysOf(vectorResult('eth_getTransactionByHash/get-dynamic-fee.io')));
    // capped by maxFeePerGas
    const capped = toRpcTransaction(dynamicTx, sb.senders[2], {
      ...loc(2),
      baseFee: 0x3b9aca01n,
    });
    expect(capped.gasPrice).toBe('0x3b9aca01');
  });

  it('blob tx', () => {
    const t = mined(3);
    expect(t.maxFeePerBlobGas).toBe('0x20000');
    expect(t.blobVersionedHashes).toEqual([BLOB_HASH]);
    expect(t.type).toBe('0x3');
    expect(keysOf(t)).toEqual(keysOf(vectorResult('eth_getTransactionByHash/get-blob-tx.io')));
  });

  it('set-code tx', () => {
    const t = mined(4);
    expect(t.authorizationList).toEqual([
      {
        chainId: '0x1',
        address: AUTH_TARGET,
        nonce: '0x0',
        yParity: '0x0',
        r: '0xf17d59102e9ebed035d1bd77bc668b170eb1d38edef6e7d971857d85781d68fe',
        s: '0x193dbdc8dea2fc194da75febbd4de9689b625eecd1e4ca30e27b45339af22572',
      },
    ]);
    expect(t.to).toBe('0x0000000000000000000000000000000000000000');
    expect(t.accessList).toEqual([]);
    const vec = vectorResult('eth_getTransactionByHash/get-setcode-tx.io') as RpcTransaction;
    expect(keysOf(t)).toEqual(keysOf(vec));
    expect(keysOf(t.authorizationList?.[0])).toEqual(keysOf(vec.authorizationList?.[0]));
  });

  it('unprotected legacy tx has no chainId (vector get-legacy-tx)', () => {
    const old = homesteadStyleBlock();
    const t = toRpcTransaction(old.block.transactions[0], old.senders[0], {
      blockHash: old.hash,
      blockNumber: old.number,
      index: 0,
      blockTimestamp: old.block.header.timestamp,
    });
    expect(['0x1b', '0x1c']).toContain(t.v);
    expect(t.chainId).toBeUndefined();
    expect(keysOf(t)).toEqual(keysOf(vectorResult('eth_getTransactionByHash/get-legacy-tx.io')));
    validate('eth_getTransactionByHash', t);
  });

  it('pending form: null block fields, gasPrice = maxFeePerGas (as geth txpool output)', () => {
    const t = toRpcTransaction(dynamicTx, sb.senders[2]);
    expect(t.blockHash).toBeNull();
    expect(t.blockNumber).toBeNull();
    expect(t.blockTimestamp).toBeNull();
    expect(t.transactionIndex).toBeNull();
    expect(t.gasPrice).toBe('0x3b9aca01');
    const pool = vectorResult('txpool_content/get-content.io') as {
      pending: Record<string, Record<string, RpcTransaction>>;
    };
    const sample = Object.values(Object.values(pool.pending)[0]).find((x) => x.type === '0x2');
    expect(keysOf(t)).toEqual(keysOf(sample));
  });

  it('every mined tx validates against the eth_getTransactionByHash schema', () => {
    for (let i = 0; i < TXS.length; i++) validate('eth_getTransactionByHash', mined(i));
    validate('eth_getTransactionByHash', null);
  });
});

describe('toRpcBlock', () => {
  const sb = pragueBlock();

  it('post-Prague block with hashes: vector field set (without totalDifficulty)', () => {
    const b = toRpcBlock(sb, false, { totalDifficulty: false });
    const vec = vectorResult('eth_getBlockByNumber/get-block-prague-fork.io') as RpcBlock;
    expect(keysOf(b)).toEqual(keysOf(vec));
    expect(b.number).toBe('0x2d');
    expect(b.hash).toBe(bytesToHex(sb.hash));
    expect(b.transactions).toEqual(TXS.map((t) => bytesToHex(t.hash())));
    expect(b.baseFeePerGas).toBe('0x56a9213');
    expect(b.blobGasUsed).toBe('0x20000');
    expect(b.excessBlobGas).toBe('0x0');
    expect(b.parentBeaconBlockRoot).toBe(`0x${'4b'.repeat(32)}`);
    expect(b.requestsHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(b.withdrawals).toEqual([
      {
        index: '0x0',
        validatorIndex: '0x5',
        address: WITHDRAWAL_ADDR,
        amount: '0x64',
      },
    ]);
    expect(b.withdrawalsRoot).toBe(bytesToHex(sb.block.header.withdrawalsRoot ?? new Uint8Array()));
    expect(b.size).toBe(`0x${sb.size.toString(16)}`);
    expect(b.nonce).toBe('0x0000000000000000');
    expect(b.difficulty).toBe('0x0');
    expect(b.miner).toBe('0x0000000000000000000000000000000000000000');
    expect(b.uncles).toEqual([]);
    expect(b.extraData).toBe('0x');
    expect(b.gasLimit).toBe('0xbebc200');
    expect(b.timestamp).toBe('0x1c2');
    expect('totalDifficulty' in b).toBe(false);
    validate('eth_getBlockByNumber', b);
  });

  it('schema validation is not vacuous', () => {
    const b = toRpcBlock(sb, false);
    expect(() => validate('eth_getBlockByNumber', { ...b, hash: '0xABC' })).toThrow(/fails the schema/);
    expect(() => validate('eth_getBlockByNumber', { ...b, number: '0x01' })).toThrow(/fails the schema/);
    const r = toRpcReceipt(sb, 1);
    expect(() => validate('eth_getTransactionReceipt', { ...r, blockTimestamp: '0x1' })).toThrow(/fails the schema/);
  });

  it('includes totalDifficulty by default (interface-spec §2.4)', () => {
    const b = toRpcBlock(sb, false);
    expect(b.totalDifficulty).toBe('0x4000000');
    const keys = Object.keys(b);
    expect(keys[keys.indexOf('difficulty') + 1]).toBe('totalDifficulty');
    validate('eth_getBlockByNumber', b);
  });

  it('full transactions carry block location and effective gas price', () => {
    const b = toRpcBlock(sb, true, { totalDifficulty: false });
    const txs = b.transactions as RpcTransaction[];
    expect(txs).toHaveLength(5);
    txs.forEach((t, i) => {
      expect(t.blockHash).toBe(b.hash);
      expect(t.blockNumber).toBe('0x2d');
      expect(t.blockTimestamp).toBe('0x1c2');
      expect(t.transactionIndex).toBe(`0x${i.toString(16)}`);
      expect(t.from).toBe(sb.senders[i].toString());
    });
    expect(txs[2].gasPrice).toBe(`0x${(BASE_FEE + 1n).toString(16)}`);
    validate('eth_getBlockByNumber', b);
  });

  it('pre-London block: no fork fields, uncles listed (vector genesis field set)', () => {
    const old = homesteadStyleBlock();
    const b = toRpcBlock(old, true, { totalDifficulty: false });
    expect(keysOf(b)).toEqual(keysOf(vectorResult('eth_getBlockByNumber/get-genesis.io')));
    expect(b.uncles).toEqual([bytesToHex(old.block.uncleHeaders[0].hash())]);
    expect(b.difficulty).toBe('0x20100');
    validate('eth_getBlockByNumber', b);
  });
});

describe('toRpcPendingBlock', () => {
  it('nulls number, hash, nonce and logsBloom; txs in pending form', () => {
    const sb = pragueBlock();
    const senders = sb.senders;
    const b = toRpcPendingBlock({ block: sb.block, senders, totalDifficulty: 5n }, true);
    expect(b.number).toBeNull();
    expect(b.hash).toBeNull();
    expect(b.nonce).toBeNull();
    expect(b.logsBloom).toBeNull();
    expect(b.totalDifficulty).toBe('0x5');
    expect(b.size).toBe(`0x${sb.size.toString(16)}`);
    expect(b.parentHash).toBe(`0x${'a3'.repeat(32)}`);
    const txs = b.transactions as RpcTransaction[];
    expect(txs.every((t) => t.blockHash === null && t.transactionIndex === null)).toBe(true);
    expect(txs[2].gasPrice).toBe('0x3b9aca01');
    const hashes = toRpcPendingBlock({ block: sb.block, senders }, false, {
      totalDifficulty: false,
    });
    expect(hashes.transactions).toEqual(TXS.map((t) => bytesToHex(t.hash())));
    expect('totalDifficulty' in hashes).toBe(false);
    expect(toRpcPendingBlock({ block: sb.block, senders }, false).totalDifficulty).toBeNull();
  });
});

describe('toRpcReceipt / toRpcReceipts', () => {
  const sb = pragueBlock();

  it('legacy creation: contractAddress derived, status, vector field set', () => {
    const r = toRpcReceipt(sb, 0);
    const expected = bytesToHex(generateAddress(sb.senders[0].bytes, new Uint8Array()));
    expect(r.contractAddress).toBe(expected);
    expect(r.to).toBeNull();
    expect(r.status).toBe('0x1');
    expect(r.root).toBeUndefined();
    expect(r.effectiveGasPrice).toBe('0x7');
    expect(r.cumulativeGasUsed).toBe('0x102d3');
    expect(r.logs).toEqual([]);
    expect(r.type).toBe('0x0');
    expect(keysOf(r)).toEqual(keysOf(vectorResult('eth_getTransactionReceipt/get-access-list.io')));
    // a stored contract address wins
    const withStored = pragueBlock();
    withStored.receipts[0].contractAddress = hexToBytes(TO);
    expect(toRpcReceipt(withStored, 0).contractAddress).toBe(TO);
    validate('eth_getTransactionReceipt', r);
  });

  it('logs get block-wide indexes and full positions', () => {
    const r4 = toRpcReceipt(sb, 4);
    expect(r4.logs.map((l) => l.logIndex)).toEqual(['0x3', '0x4']);
    expect(r4.logs[0]).toEqual({
      address: TO,
      topics: [bytesToHex(topic(0x656d6974)), bytesToHex(topic(4))],
      data: bytesToHex(topic(4)),
      blockNumber: '0x2d',
      transactionHash: bytesToHex(setCodeTx.hash()),
      transactionIndex: '0x4',
      blockHash: bytesToHex(sb.hash),
      blockTimestamp: '0x1c2',
      logIndex: '0x3',
      removed: false,
    });
    const vec = vectorResult('eth_getTransactionReceipt/get-access-list.io') as { logs: object[] };
    expect(keysOf(r4.logs[0])).toEqual(keysOf(vec.logs[0]));
    expect(keysOf(r4)).toEqual(keysOf(vectorResult('eth_getTransactionReceipt/get-setcode-tx.io')));
    validate('eth_getTransactionReceipt', r4);
  });

  it('blob receipt carries blobGasUsed and blobGasPrice', () => {
    const r = toRpcReceipt(sb, 3);
    expect(r.blobGasUsed).toBe('0x20000');
    expect(r.blobGasPrice).toBe('0x1');
    expect(r.logs[0].logIndex).toBe('0x2');
    expect(keysOf(r)).toEqual(keysOf(vectorResult('eth_getTransactionReceipt/get-blob-tx.io')));
    // derived when the stored receipt lacks them
    const bare = pragueBlock();
    bare.receipts[3] = {
      ...bare.receipts[3],
      blobGasUsed: undefined,
      blobGasPrice: undefined,
    };
    const d = toRpcReceipt(bare, 3);
    expect(d.blobGasUsed).toBe('0x20000');
    expect(d.blobGasPrice).toBe(`0x${bare.block.header.getBlobGasPrice().toString(16)}`);
    validate('eth_getTransactionReceipt', r);
  });

  it('pre-Byzantium receipt has root instead of status (vector get-legacy-receipt)', () => {
    const old = homesteadStyleBlock();
    const r = toRpcReceipt(old, 0);
    expect(r.root).toBe('0x09ebe9c3ee77cd8d23faf37c62cf702b3c00e71dcadbef4d21355f35921b49ca');
    expect(r.status).toBeUndefined();
    expect(r.to).toBe('0xc7b99a164efd027a93f147376cc7da7c67c6bbe0');
    expect(r.contractAddress).toBeNull();
    expect(keysOf(r)).toEqual(keysOf(vectorResult('eth_getTransactionReceipt/get-legacy-receipt.io')));
    validate('eth_getTransactionReceipt', r);
  });

  it('failed transaction reports status 0x0', () => {
    const b = pragueBlock();
    b.receipts[2] = { ...b.receipts[2], status: 0 };
    expect(toRpcReceipt(b, 2).status).toBe('0x0');
  });

  it('toRpcReceipts equals per-index receipts and validates', () => {
    const all = toRpcReceipts(sb);
    expect(all).toEqual(sb.receipts.map((_, i) => toRpcReceipt(sb, i)));
    expect(all.flatMap((r) => r.logs.map((l) => l.logIndex))).toEqual(['0x0', '0x1', '0x2', '0x3', '0x4']);
    validate('eth_getBlockReceipts', all);
    validate('eth_getBlockReceipts', toRpcReceipts(homesteadStyleBlock()));
  });

  it('rejects an index out of range', () => {
    expect(() => toRpcReceipt(sb, 5)).toThrow(RangeError);
  });
});

describe('toRpcLog / toRpcBlockLogs', () => {
  const sb = pragueBlock();

  it('lists all logs of a block in order', () => {
    const logs = toRpcBlockLogs(sb);
    expect(logs.map((l) => [l.transactionIndex, l.logIndex])).toEqual([
      ['0x1', '0x0'],
      ['0x1', '0x1'],
      ['0x3', '0x2'],
      ['0x4', '0x3'],
      ['0x4', '0x4'],
    ]);
    validate('eth_getLogs', logs);
  });

  it('filters raw logs but keeps block-wide indexes', () => {
    const logs = toRpcBlockLogs(sb, (l, txIndex) => txIndex === 4 && l[1][1][31] === 5);
    expect(logs).toHaveLength(1);
    expect(logs[0].logIndex).toBe('0x4');
    expect(logs[0].transactionHash).toBe(bytesToHex(setCodeTx.hash()));
    expect(toRpcBlockLogs(sb, () => false)).toEqual([]);
    expect(toRpcBlockLogs(sb, undefined, true).every((l) => l.removed)).toBe(true);
  });

  it('toRpcLog formats one log', () => {
    const l = toRpcLog(log(9), {
      blockHash: sb.hash,
      blockNumber: 7n,
      blockTimestamp: 70n,
      transactionHash: accessListTx.hash(),
      transactionIndex: 1,
      logIndex: 12,
    });
    expect(l).toMatchObject({
      blockNumber: '0x7',
      blockTimestamp: '0x46',
      transactionIndex: '0x1',
      logIndex: '0xc',
      removed: false,
    });
    expect(
      toRpcLog(
        log(9),
        {
          blockHash: sb.hash,
          blockNumber: 7n,
          blockTimestamp: 70n,
          transactionHash: accessListTx.hash(),
          transactionIndex: 1,
          logIndex: 12,
        },
        true,
      ).removed,
    ).toBe(true);
    const vec = vectorResult('eth_getLogs/contract-addr.io') as object[];
    expect(keysOf(l)).toEqual(keysOf(vec[0]));
    validate('eth_getLogs', [l]);
  });
});
