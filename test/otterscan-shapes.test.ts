/**
 * Otterscan's requests, replayed. Otterscan (otterscan/otterscan 2.x: src/useProvider.ts,
 * src/useErigonHooks.ts, src/useLatestBlock.ts, src/search/search.ts) talks to its node through
 * an ethers JsonRpcProvider (batched, static network). The pages below list the raw requests
 * each page sends, with the parameter shapes read from its source (block numbers as JSON numbers,
 * "latest" probes, page numbers and sizes as numbers), plus the ethers calls it makes. Each is
 * sent through ethers as Otterscan does and must answer without a JSON-RPC error, in the shape
 * Otterscan's hooks and formatter read (fields present, of the right kind).
 */
import { Contract, ContractFactory, JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { type TestNode, startNode } from './helpers/node.js';

// ---- A small vocabulary of the value kinds Otterscan's formatter accepts ----
type Spec =
  | 'hash'
  | 'address'
  | 'quantity'
  | 'data'
  | 'number'
  | 'boolean'
  | 'string'
  | { nullable: Spec }
  | { arrayOf: Spec }
  | { fields: Record<string, Spec> };

const nullable = (s: Spec): Spec => ({ nullable: s });
const arrayOf = (s: Spec): Spec => ({ arrayOf: s });
const fields = (f: Record<string, Spec>): Spec => ({ fields: f });

const KIND: Record<string, (v: unknown) => boolean> = {
  hash: (v) => typeof v === 'string' && /^0x[0-9a-f]{64}$/i.test(v),
  address: (v) => typeof v === 'string' && /^0x[0-9a-f]{40}$/i.test(v),
  quantity: (v) => typeof v === 'string' && /^0x(0|[1-9a-f][0-9a-f]*)$/i.test(v),
  data: (v) => typeof v === 'string' && /^0x([0-9a-f]{2})*$/i.test(v),
  number: (v) => typeof v === 'number' && Number.isSafeInteger(v),
  boolean: (v) => typeof v === 'boolean',
  string: (v) => typeof v === 'string',
};

/** Where `value` departs from `spec`, as `path: problem` lines. */
function problems(spec: Spec, value: unknown, path = '$'): string[] {
  if (typeof spec === 'string') {
    return KIND[spec](value) ? [] : [`${path}: want ${spec}, got ${JSON.stringify(value)?.slice(0, 80)}`];
  }
  if ('nullable' in spec) return value === null || value === undefined ? [] : problems(spec.nullable, value, path);
  if ('arrayOf' in spec) {
    if (!Array.isArray(value)) return [`${path}: want an array, got ${JSON.stringify(value)?.slice(0, 80)}`];
    return value.flatMap((v, i) => problems(spec.arrayOf, v, `${path}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: want an object`];
  const o = value as Record<string, unknown>;
  return Object.entries(spec.fields).flatMap(([k, s]) => problems(s, o[k], `${path}.${k}`));
}

// ---- The shapes Otterscan reads (formatter.block/transaction/receipt and its hooks) ----
const HEADER = {
  hash: 'hash',
  parentHash: 'hash',
  number: 'quantity',
  timestamp: 'quantity',
  nonce: 'data',
  difficulty: 'quantity',
  gasLimit: 'quantity',
  gasUsed: 'quantity',
  miner: 'address',
  extraData: 'data',
  receiptsRoot: nullable('hash'),
  stateRoot: nullable('hash'),
  baseFeePerGas: nullable('quantity'),
  blobGasUsed: nullable('quantity'),
  excessBlobGas: nullable('quantity'),
  parentBeaconBlockRoot: nullable('hash'),
} as const satisfies Record<string, Spec>;

const TRANSACTION = fields({
  hash: 'hash',
  type: 'quantity',
  blockHash: nullable('hash'),
  blockNumber: nullable('quantity'),
  transactionIndex: nullable('quantity'),
  from: 'address',
  gasPrice: 'quantity', // "gasPrice must be set"
  maxPriorityFeePerGas: nullable('quantity'),
  maxFeePerGas: nullable('quantity'),
  gas: 'quantity', // renamed gasLimit
  to: nullable('address'),
  value: 'quantity',
  nonce: 'quantity',
  input: 'data', // renamed data
  chainId: nullable('quantity'),
  r: 'quantity',
  s: 'quantity',
  v: nullable('quantity'),
});

const RECEIPT_FIELDS = {
  to: nullable('address'),
  from: 'address',
  contractAddress: nullable('address'),
  transactionIndex: 'quantity',
  gasUsed: 'quantity',
  blockHash: 'hash',
  transactionHash: 'hash',
  blockNumber: 'quantity',
  cumulativeGasUsed: 'quantity',
  effectiveGasPrice: nullable('quantity'),
  status: nullable('quantity'),
  type: 'quantity',
} as const satisfies Record<string, Spec>;

const SHAPES = {
  apiLevel: 'number',
  header: fields(HEADER),
  blockDetails: fields({
    block: fields({ ...HEADER, size: 'quantity', sha3Uncles: 'hash', stateRoot: 'hash', transactionCount: 'number' }),
    issuance: fields({ blockReward: 'quantity', uncleReward: 'quantity' }),
    totalFees: 'quantity',
  }),
  blockTransactions: fields({
    fullblock: fields({ ...HEADER, transactions: arrayOf(TRANSACTION), transactionCount: 'number' }),
    // logs are replaced by [] before formatting (Otterscan's blockTransactionsFetcher)
    receipts: arrayOf(fields({ ...RECEIPT_FIELDS, logs: nullable({ arrayOf: fields({}) }) })),
  }),
  search: fields({
    txs: arrayOf(TRANSACTION),
    receipts: arrayOf(fields({ ...RECEIPT_FIELDS, logs: arrayOf(fields({})), timestamp: 'quantity' })),
    firstPage: 'boolean',
    lastPage: 'boolean',
  }),
  hasCode: 'boolean',
  trace: arrayOf(
    fields({
      type: 'string',
      depth: 'number',
      from: 'address',
      to: 'address',
      value: nullable('quantity'),
      input: 'data',
    }),
  ),
  internalOps: arrayOf(fields({ type: 'number', from: 'address', to: 'address', value: 'quantity' })),
  transactionError: 'data',
  txHashOrNull: nullable('hash'),
  creator: nullable(fields({ hash: 'hash', creator: 'address' })),
  stateDiff: fields({ stateDiff: fields({}) }),
} satisfies Record<string, Spec>;

type Request = { method: string; params: unknown[]; shape: Spec };
const req = (method: string, params: unknown[], shape: Spec): Request => ({ method, params, shape });

describe("Otterscan's requests against a chain with blocks, contracts and transactions", () => {
  let node: TestNode;
  let provider: JsonRpcProvider;
  let token: string;
  let tokenTransfer: string;
  let plainTransfer: string;
  let tracerRun: string;
  let failed: string;
  /** Block numbers of interest. */
  let head: number;
  let transferBlock: number;

  beforeAll(async () => {
    node = await startNode();
    // As Otterscan builds it: batching on, the network fixed.
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true });
    const signer = await provider.getSigner(DEV_ACCOUNTS[0].address);
    const deploy = async (name: 'Token' | 'Counter' | 'Tracer', ...args: unknown[]) => {
      const art = loadArtifact(name);
      const c = await new ContractFactory(art.abi, art.bytecode, signer).deploy(...args);
      await c.waitForDeployment();
      return c;
    };
    const tokenContract = await deploy('Token', 'Shape', 'SHP', 10n ** 21n);
    token = await tokenContract.getAddress();
    const t = await tokenContract.getFunction('transfer')(DEV_ACCOUNTS[1].address, 10n ** 18n);
    tokenTransfer = (await t.wait())?.hash as string;
    const p = await signer.sendTransaction({ to: DEV_ACCOUNTS[2].address, value: 12345n });
    const r = await p.wait();
    plainTransfer = p.hash;
    transferBlock = Number(r?.blockNumber);
    // Every kind of internal frame: value CALL, STATICCALL, DELEGATECALL, a reverted CALL, CREATE, SELFDESTRUCT, CREATE2.
    const tracer = await deploy('Tracer');
    const run = await tracer.getFunction('run')(DEV_ACCOUNTS[2].address, `0x${'00'.repeat(31)}07`, { value: 10n });
    tracerRun = (await run.wait())?.hash as string;
    // A transaction that reverts with Error(string), mined: found in its block whether or not the send throws.
    const counter = await deploy('Counter');
    const counterAddress = (await counter.getAddress()).toLowerCase();
    const data = counter.interface.encodeFunctionData('fail');
    await provider
      .send('eth_sendTransaction', [{ from: DEV_ACCOUNTS[0].address, to: counterAddress, data, gas: '0x30000' }])
      .catch(() => undefined);
    const mined = await provider.send('eth_getBlockByNumber', ['latest', true]);
    failed = mined.transactions.find((x: { to: string }) => x.to?.toLowerCase() === counterAddress).hash;
    await provider.send('evm_mine', []);
    head = await provider.getBlockNumber();
  }, 60_000);
  afterAll(async () => {
    provider?.destroy();
    await node?.close();
  });

  /** Each page's raw requests (useProvider, useErigonHooks, useLatestBlock, search). */
  const pages = (): Record<string, Request[]> => {
    const from = DEV_ACCOUNTS[0].address;
    return {
      'start-up probe (useProvider)': [
        req('erigon_getHeaderByNumber', ['latest'], SHAPES.header),
        req('ots_getApiLevel', [], SHAPES.apiLevel),
      ],
      'latest block header (useLatestBlockHeader)': [req('erigon_getHeaderByNumber', [head], SHAPES.header)],
      'block page /block/:n': [
        req('ots_getBlockDetails', [transferBlock], SHAPES.blockDetails),
        req('ots_getBlockDetails', [0], SHAPES.blockDetails),
      ],
      'block transactions /block/:n/txs?p=1': [
        req('ots_getBlockTransactions', [transferBlock, 0, 25], SHAPES.blockTransactions),
        req('ots_getBlockTransactions', [head, 0, 25], SHAPES.blockTransactions),
      ],
      'transaction page /tx/:hash': [
        req('ots_getBlockDetails', [transferBlock], SHAPES.blockDetails),
        req('ots_getInternalOperations', [tracerRun], SHAPES.internalOps),
        req('ots_getInternalOperations', [tokenTransfer], SHAPES.internalOps),
        req('ots_traceTransaction', [tracerRun], SHAPES.trace),
        req('ots_traceTransaction', [tokenTransfer], SHAPES.trace),
        req('ots_getTransactionError', [failed], SHAPES.transactionError),
        req('ots_getTransactionError', [plainTransfer], SHAPES.transactionError),
        // TransactionAddress / InternalTransfer: code at the block before the transaction's
        req('ots_hasCode', [from, transferBlock - 1], SHAPES.hasCode),
        req('ots_hasCode', [token, transferBlock - 1], SHAPES.hasCode),
        // NavButton: the sender's transactions one nonce below and above
        req('ots_getTransactionBySenderAndNonce', [from, 0], SHAPES.txHashOrNull),
        req('ots_getTransactionBySenderAndNonce', [from, 1], SHAPES.txHashOrNull),
        req('trace_replayTransaction', [tokenTransfer, ['stateDiff']], SHAPES.stateDiff),
      ],
      'address page /address/:a': [
        req('ots_hasCode', [token, 'latest'], SHAPES.hasCode),
        req('eth_getCode', [token, 'latest'], 'data'),
        req('ots_searchTransactionsBefore', [from, 0, 25], SHAPES.search),
        req('ots_searchTransactionsAfter', [from, 0, 25], SHAPES.search),
        req('ots_searchTransactionsBefore', [from, transferBlock, 25], SHAPES.search),
        req('ots_searchTransactionsAfter', [from, 1, 25], SHAPES.search),
        req('ots_getContractCreator', [token], SHAPES.creator),
        req('ots_getContractCreator', [from], SHAPES.creator),
      ],
      'address nonce page /address/:a/:nonce': [
        req('ots_getTransactionBySenderAndNonce', [from, 3], SHAPES.txHashOrNull),
        req('ots_getTransactionBySenderAndNonce', [from, 10_000], SHAPES.txHashOrNull),
      ],
    };
  };

  const PAGES = [
    'start-up probe (useProvider)',
    'latest block header (useLatestBlockHeader)',
    'block page /block/:n',
    'block transactions /block/:n/txs?p=1',
    'transaction page /tx/:hash',
    'address page /address/:a',
    'address nonce page /address/:a/:nonce',
  ];

  it('every page is replayed', () => {
    expect(Object.keys(pages())).toEqual(PAGES);
  });

  for (const page of PAGES) {
    it(`${page}: every request answers, in the shape Otterscan reads`, async () => {
      const requests = pages()[page];
      // Sent together, as the page's hooks do (ethers batches them into one HTTP request).
      const answers = await Promise.allSettled(requests.map((r) => provider.send(r.method, r.params)));
      const out: string[] = [];
      answers.forEach((a, i) => {
        const r = requests[i];
        const name = `${r.method}(${JSON.stringify(r.params)})`;
        if (a.status === 'rejected') out.push(`${name}: ${String((a.reason as Error).message).slice(0, 200)}`);
        else out.push(...problems(r.shape, a.value, name));
      });
      expect(out).toEqual([]);
    });
  }

  it('the answers name the blocks and transactions asked for', async () => {
    const from = DEV_ACCOUNTS[0].address;
    const latest = await provider.send('eth_getBlockByNumber', ['latest', false]);
    expect((await provider.send('erigon_getHeaderByNumber', ['latest'])).hash).toBe(latest.hash);
    const block = await provider.send('eth_getBlockByNumber', [`0x${transferBlock.toString(16)}`, false]);
    expect((await provider.send('erigon_getHeaderByNumber', [transferBlock])).hash).toBe(block.hash);
    expect((await provider.send('ots_getBlockDetails', [transferBlock])).block.hash).toBe(block.hash);
    const txs = await provider.send('ots_getBlockTransactions', [transferBlock, 0, 25]);
    expect(txs.fullblock.transactions.map((t: { hash: string }) => t.hash)).toEqual(block.transactions);
    expect(await provider.send('ots_hasCode', [token, transferBlock - 1])).toBe(true);
    expect(await provider.send('ots_hasCode', [from, transferBlock - 1])).toBe(false);
    expect(await provider.send('ots_hasCode', [token, 0])).toBe(false);
    const sent = await provider.getTransaction(plainTransfer);
    expect(await provider.send('ots_getTransactionBySenderAndNonce', [from, sent?.nonce])).toBe(plainTransfer);
    expect((await provider.send('ots_getContractCreator', [token]))?.creator.toLowerCase()).toBe(from.toLowerCase());
    // Erigon's operation types: 0 transfer, 1 self-destruct, 2 create, 3 create2 (Otterscan's OperationType)
    const ops = await provider.send('ots_getInternalOperations', [tracerRun]);
    expect(new Set(ops.map((o: { type: number }) => o.type))).toEqual(new Set([0, 1, 2, 3]));
    // The failing call's revert data: Error(string)'s selector, which Otterscan decodes.
    expect((await provider.send('ots_getTransactionError', [failed])).slice(0, 10)).toBe('0x08c379a0');
  });

  it("ethers' own calls on those pages (balance, nonce, code, transaction, receipt, token metadata) answer", async () => {
    const from = DEV_ACCOUNTS[0].address;
    expect(await provider.getBalance(from)).toBeGreaterThan(0n);
    expect(await provider.getTransactionCount(from)).toBeGreaterThan(0);
    expect((await provider.getTransaction(tokenTransfer))?.to?.toLowerCase()).toBe(token.toLowerCase());
    const receipt = await provider.getTransactionReceipt(tokenTransfer);
    expect(receipt?.logs.some((l) => l.topics.length === 3)).toBe(true);
    const art = loadArtifact('Token');
    const erc20 = new Contract(token, art.abi, provider);
    expect(await erc20.getFunction('name')()).toBe('Shape');
    expect(await erc20.getFunction('symbol')()).toBe('SHP');
    expect(await provider.getBlock(transferBlock)).not.toBeNull();
  });
});
