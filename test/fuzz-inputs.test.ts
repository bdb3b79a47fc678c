// Issue #8, fuzzing: random and malformed JSON-RPC requests (every registered method with random
// parameters, broken envelopes, random JSON, non-JSON bodies) and random /api/v2 paths and
// queries, thrown at a node over HTTP. Bad input is the client's fault: never a 500 or a -32603,
// never a hang, and the node keeps serving. Fixed seed and run counts keep it bounded.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessNode, startAccessNode } from './helpers/access.js';

const SEED = 1;
const PER_REQUEST_MS = 10_000;
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

let node: AccessNode;
let methods: string[] = [];
let txHash = '0x';
let blockHash = '0x';

beforeAll(async () => {
  node = await startAccessNode({}, { chain: { hardfork: 'prague' } });
  // A little chain, so hashes and numbers sometimes hit something real.
  txHash = (await node.kernel.request({
    method: 'eth_sendTransaction',
    params: [{ from: ACCOUNT0, to: ACCOUNT0, value: '0x1' }],
  })) as string;
  blockHash = (
    (await node.kernel.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string }
  ).hash;
  // Methods that would take the node away from the rest of the run are still fuzzed, on their
  // parameters' parsers only (see below); everything else runs for real.
  methods = node.kernel.methods.names();
});
afterAll(() => node?.close());

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
const quantity = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 260n }).map((n) => `0x${n.toString(16)}`),
  fc.constantFrom('0x', '0x00', '0x-1', '1', '0xg'),
);
const tag = fc.constantFrom('latest', 'earliest', 'pending', 'safe', 'finalized', '0x0', '0x1', '0xffffffff', 'LATEST');
const address = fc.oneof(hex(20), fc.constant(ACCOUNT0), hex(19), hex(21));
const anyHash = fc.oneof(hex(32), fc.constant(txHash), fc.constant(blockHash), hex(31));
const callObject = fc.record(
  {
    from: address,
    to: fc.oneof(address, fc.constant(null)),
    gas: quantity,
    gasPrice: quantity,
    maxFeePerGas: quantity,
    value: quantity,
    data: fc.oneof(hex(4), hex(68), fc.constant('0x5b600056')),
    input: hex(8),
    nonce: quantity,
    type: fc.constantFrom('0x0', '0x1', '0x2', '0x3', '0x4', '0x7f'),
    accessList: fc.array(fc.record({ address, storageKeys: fc.array(anyHash, { maxLength: 2 }) }), { maxLength: 2 }),
    fromBlock: tag,
    toBlock: tag,
    address: fc.oneof(address, fc.array(address, { maxLength: 3 })),
    topics: fc.array(fc.oneof(anyHash, fc.constant(null), fc.array(anyHash, { maxLength: 2 })), { maxLength: 4 }),
    blockHash: anyHash,
  },
  { requiredKeys: [] },
);
const param = fc.oneof(
  { weight: 3, arbitrary: fc.oneof(address, anyHash, quantity, tag, callObject, fc.boolean()) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, '', '0x', [], {}, -1, 1.5, 2 ** 53, '💥') },
);

// Methods that change how the whole node runs (a reset, interval mining every millisecond, a
// revert to the first snapshot) are called with a first parameter that fails to parse.
const DISRUPTIVE =
  /^(hardhat_reset|anvil_reset|evm_setIntervalMining|anvil_setIntervalMining|evm_setAutomine|anvil_setAutomine|hardhat_setAutomine|anvil_loadState|evm_revert|anvil_revert|anvil_setBlockTimestampInterval)$/;

const rpcRequest = fc.oneof(
  // A registered method with random parameters: the realistic case.
  {
    weight: 6,
    arbitrary: fc
      .constant(null)
      .chain(() => fc.constantFrom(...methods))
      .chain((method) =>
        fc.record({
          jsonrpc: fc.constant('2.0'),
          id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
          method: fc.constant(method),
          // Mostly within the method's arity, so the parsers and the handler get to work.
          params: fc.array(param, { maxLength: (node.kernel.methods.get(method)?.params.length ?? 0) + 1 }),
        }),
      ),
  },
  // Broken envelopes: wrong jsonrpc, odd ids, params not an array, methods that do not exist.
  {
    weight: 2,
    arbitrary: fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 1 })),
        id: fc.jsonValue({ maxDepth: 1 }),
        method: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
        params: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** The body: one request, a batch, or text that is not JSON at all. */
const rpcBody = fc.oneof(
  { weight: 6, arbitrary: rpcRequest.map((r) => JSON.stringify(r)) },
  { weight: 2, arbitrary: fc.array(rpcRequest, { minLength: 0, maxLength: 4 }).map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** Keeps disruptive methods to parameter checks: their first parameter becomes a value none accepts. */
function tameOne(request: unknown): unknown {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return request;
  const r = request as { method?: unknown; params?: unknown };
  if (typeof r.method !== 'string' || !DISRUPTIVE.test(r.method)) return request;
  return { ...r, params: ['not a value 💥', ...(Array.isArray(r.params) ? r.params.slice(1) : [])] };
}

function tame(body: string): string {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return body;
  }
  return JSON.stringify(Array.isArray(v) ? v.map(tameOne) : tameOne(v));
}

async function send(body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(PER_REQUEST_MS),
  });
  return { status: res.status, text: await res.text() };
}

function internalErrors(text: string): unknown[] {
  if (text === '') return [];
  const v = JSON.parse(text) as unknown;
  const list = Array.isArray(v) ? v : [v];
  return list.filter((r) => (r as { error?: { code?: number } })?.error?.code === -32603);
}

describe('JSON-RPC fuzzing', () => {
  it('answers every malformed or random request without a 500 or -32603', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(rpcBody, async (raw) => {
        const body = tame(raw);
        const r = await send(body);
        expect(r.status, body).not.toBe(500);
        expect(internalErrors(r.text), body).toEqual([]);
      }),
      { seed: SEED, numRuns: 2000, endOnFailure: true },
    );
    expect(JSON.parse((await send('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')).text)).toMatchObject({
      result: '0x7a69',
    });
  });
});

const SEGMENTS = [
  'blocks',
  'transactions',
  'addresses',
  'tokens',
  'token-transfers',
  'search',
  'stats',
  'charts',
  'main-page',
  'withdrawals',
  'internal-transactions',
  'logs',
  'counters',
  'holders',
  'instances',
  'raw-trace',
  'state-changes',
  'coin-balance-history',
  'coin-balance-history-by-day',
  'token-balances',
  'smart-contracts',
  'config',
  'json-rpc-url',
  'txs',
  'market',
  'indexing-status',
  'check-redirect',
  'quick',
  'summary',
  'tokens-transfers',
  'blobs',
];
const QUERY_KEYS = [
  'q',
  'type',
  'filter',
  'block_number',
  'index',
  'items_count',
  'hash',
  'value',
  'fee',
  'token',
  'holder_count',
  'name',
  'is_name_null',
  'market_cap',
  'fiat_value',
  'transaction_index',
  'unique_token',
  'page_size',
];
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 2, arbitrary: fc.oneof(hex(20), hex(32), fc.constant(ACCOUNT0)).map((h) => h as string) },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.nat().map(String), fc.constantFrom('-1', '0', '1', '99999999999999999999', '0x1', 'latest')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)) },
);
const queryValue = fc.oneof(
  fc.constantFrom('', '0', '1', '-1', 'true', 'null', 'erc-20', 'ERC-721', 'from', 'to', 'validated', 'pending'),
  fc.nat().map(String),
  hex(20),
  hex(32),
  fc.string({ maxLength: 12 }),
);
const restPath = fc
  .tuple(
    fc.array(segment, { minLength: 0, maxLength: 4 }),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })), queryValue), {
      maxLength: 4,
    }),
  )
  .map(([segs, query]) => {
    const q = new URLSearchParams(query).toString();
    return `/api/v2/${segs.join('/')}${q ? `?${q}` : ''}`;
  });

describe('REST fuzzing', () => {
  it('answers every random /api/v2 path and query without a 500', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(restPath, fc.boolean(), async (path, postIt) => {
        const res = await fetch(`${node.url}${path}`, {
          method: postIt ? 'POST' : 'GET',
          ...(postIt
            ? { headers: { 'content-type': 'application/json' }, body: '{"args":[1],"method_id":"0x12345678"}' }
            : {}),
          signal: AbortSignal.timeout(PER_REQUEST_MS),
        });
        const text = await res.text();
        expect(
          res.status,
          `${postIt ? 'POST' : 'GET'} ${path}: ${text.slice(0, 200)}\n${node.logs.slice(-3).join('\n')}`,
        ).toBeLessThan(500);
      }),
      { seed: SEED, numRuns: 1500, endOnFailure: true },
    );
    expect((await fetch(`${node.url}/api/v2/blocks`)).status).toBe(200);
  });
});
