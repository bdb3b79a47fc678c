import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isAshlarError, type ParamParser, toRpcError } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import {
  address,
  arrayOf,
  blockTag,
  blockTagOrHash,
  boolean,
  data,
  decodeFloat,
  decodeStorageKey,
  float,
  hash,
  hexOrDecimal64,
  LATEST,
  logFilter,
  optional,
  quantityNumber,
  stateOverrides,
  storageKey,
  transactionRequest,
  withDefault,
} from './index.js';

/** The execution-apis rpc-compat vectors vendored in the repository (test/fixtures/execution-apis/SOURCE.md). */
const TESTS = fileURLToPath(new URL('../../../../test/fixtures/execution-apis/tests', import.meta.url));

/** Parameter lists as the method handlers are expected to declare them. */
const SIGNATURES: Record<string, ParamParser<unknown>[]> = {
  eth_getBalance: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  eth_getCode: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  eth_getTransactionCount: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  eth_getStorageAt: [address('address'), storageKey('slot'), withDefault(blockTagOrHash('block'), LATEST)],
  eth_getProof: [
    address('address'),
    arrayOf('storageKeys', decodeStorageKey),
    withDefault(blockTagOrHash('block'), LATEST),
  ],
  eth_call: [
    transactionRequest('transaction'),
    withDefault(blockTagOrHash('block'), LATEST),
    optional(stateOverrides('stateOverrides')),
  ],
  eth_estimateGas: [
    transactionRequest('transaction'),
    optional(blockTagOrHash('block')),
    optional(stateOverrides('stateOverrides')),
  ],
  eth_createAccessList: [transactionRequest('transaction'), optional(blockTagOrHash('block'))],
  eth_getBlockByNumber: [blockTag('block'), boolean('fullTransactions')],
  eth_getBlockByHash: [hash('blockHash'), boolean('fullTransactions')],
  eth_getBlockReceipts: [blockTagOrHash('block')],
  eth_getBlockTransactionCountByNumber: [blockTag('block')],
  eth_getBlockTransactionCountByHash: [hash('blockHash')],
  eth_getTransactionByHash: [hash('transactionHash')],
  eth_getTransactionReceipt: [hash('transactionHash')],
  eth_getTransactionByBlockNumberAndIndex: [blockTag('block'), quantityNumber('index')],
  eth_getTransactionByBlockHashAndIndex: [hash('blockHash'), quantityNumber('index')],
  eth_getLogs: [logFilter('filter')],
  eth_sendRawTransaction: [data('transaction')],
  eth_feeHistory: [
    hexOrDecimal64('blockCount'),
    blockTag('newestBlock'),
    optional(arrayOf('rewardPercentiles', decodeFloat)),
  ],
  debug_getRawBlock: [blockTagOrHash('block')],
  debug_getRawHeader: [blockTagOrHash('block')],
  debug_getRawReceipts: [blockTagOrHash('block')],
  debug_getRawTransaction: [hash('transactionHash')],
};

/** -32602 errors that need chain state (the handler reports them, not the parsers). */
const HANDLER_LEVEL = new Set([
  'eth_getLogs/filter-error-future-block-range.io',
  'eth_getLogs/filter-error-reversed-block-range.io',
]);

interface Exchange {
  file: string;
  method: string;
  params: unknown[];
  error?: { code: number };
}

function exchanges(): Exchange[] {
  const out: Exchange[] = [];
  for (const dir of readdirSync(TESTS)) {
    if (!(dir in SIGNATURES)) continue;
    for (const f of readdirSync(`${TESTS}/${dir}`)) {
      const lines = readFileSync(`${TESTS}/${dir}/${f}`, 'utf8').split('\n');
      let req: { method: string; params?: unknown[] } | undefined;
      for (const line of lines) {
        if (line.startsWith('>> ')) req = JSON.parse(line.slice(3));
        else if (line.startsWith('<< ') && req) {
          const res = JSON.parse(line.slice(3)) as { error?: { code: number } };
          out.push({ file: `${dir}/${f}`, method: req.method, params: req.params ?? [], error: res.error });
          req = undefined;
        }
      }
    }
  }
  return out;
}

function parseAll(method: string, params: unknown[]): unknown[] {
  const sig = SIGNATURES[method];
  expect(params.length).toBeLessThanOrEqual(sig.length);
  return sig.map((p, i) => {
    if (params[i] === undefined && !p.optional) throw new Error(`missing required ${p.name}`);
    return p.parse(params[i], i);
  });
}

describe('execution-apis vectors through the parameter parsers', () => {
  const all = exchanges();

  it('finds the vectors', () => {
    expect(all.length).toBeGreaterThan(60);
  });

  it.each(all.filter((x) => !x.error || x.error.code !== -32602).map((x) => [x.file, x] as const))(
    'accepts %s',
    (_file, x) => {
      expect(() => parseAll(x.method, x.params)).not.toThrow();
    },
  );

  it.each(all.filter((x) => x.error?.code === -32602 && !HANDLER_LEVEL.has(x.file)).map((x) => [x.file, x] as const))(
    'rejects %s with -32602',
    (_file, x) => {
      let err: unknown;
      try {
        parseAll(x.method, x.params);
      } catch (e) {
        err = e;
      }
      expect(isAshlarError(err)).toBe(true);
      expect(toRpcError(err).code).toBe(-32602);
    },
  );
});

describe('arrayOf / hexOrDecimal64 / float', () => {
  it('arrayOf decodes items and names the failing index', () => {
    const p = arrayOf('storageKeys', decodeStorageKey);
    expect(p.parse(['0x00', '0x1'], 1).map((k) => k[31])).toEqual([0, 1]);
    expect(toRpcError(catchErr(() => p.parse(['0x1', '0xzz'], 1))).message).toBe(
      'invalid argument 1 (storageKeys): field "[1]": invalid hex in storage key: "0xzz"',
    );
    expect(toRpcError(catchErr(() => p.parse('0x1', 1))).message).toBe(
      'invalid argument 1 (storageKeys): json: cannot unmarshal string into Go value of type []interface {}',
    );
  });
  it('hexOrDecimal64 takes hex, decimal strings and numbers', () => {
    const p = hexOrDecimal64('blockCount');
    expect(p.parse('0x1', 0)).toBe(1n);
    expect(p.parse('0x01', 0)).toBe(1n);
    expect(p.parse('10', 0)).toBe(10n);
    expect(p.parse(10, 0)).toBe(10n);
    for (const bad of ['', '0x', '-1', 'ten', 1.5, -1, `0x1${'0'.repeat(16)}`, true]) {
      expect(toRpcError(catchErr(() => p.parse(bad, 0))).code).toBe(-32602);
    }
  });
  it('float accepts finite numbers only', () => {
    expect(float('p').parse(99.5, 0)).toBe(99.5);
    expect(toRpcError(catchErr(() => float('p').parse('1', 0))).message).toBe(
      'invalid argument 0 (p): json: cannot unmarshal string into Go value of type float64',
    );
  });
});

function catchErr(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}
