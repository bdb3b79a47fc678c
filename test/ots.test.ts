/**
 * Otterscan's ots_ namespace and erigon_getHeaderByNumber, with the shapes Erigon gives
 * (Otterscan's docs/custom-jsonrpc.md) and the address history read from the explorer index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type TestNode } from './helpers/node.js';
import { ADDR, type Json, type Rpc, SEL, type TraceChain, buildTraceChain, rpcClient } from './helpers/traceChain.js';

type Obj = Record<string, Json>;
const hexOf = (n: number | bigint) => `0x${n.toString(16)}`;

describe('ots_ namespace', () => {
  let node: TestNode;
  let rpc: Rpc;
  let chain: TraceChain;
  /** Three transactions mined together in one block, in this order. */
  let trio: string[];
  let trioBlock: string;

  beforeAll(async () => {
    node = await startNode();
    rpc = rpcClient(node.url);
    chain = await buildTraceChain(rpc);
    await rpc.call('evm_setAutomine', [false]);
    const fees = { maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x3b9aca00', gas: '0x30000' };
    trio = [];
    for (let i = 0; i < 3; i++)
      trio.push(
        await rpc.call<string>('eth_sendTransaction', [
          { from: chain.from, to: chain.counter, data: SEL.increment, ...fees },
        ]),
      );
    await rpc.call('evm_mine');
    await rpc.call('evm_setAutomine', [true]);
    trioBlock = (await rpc.call<Obj>('eth_getTransactionReceipt', [trio[0]])).blockNumber as string;
  });
  afterAll(() => node.close());

  it('reports API level 8 and whether an address has code', async () => {
    expect(await rpc.call('ots_getApiLevel')).toBe(8);
    expect(await rpc.call('ots_hasCode', [chain.counter, 'latest'])).toBe(true);
    expect(await rpc.call('ots_hasCode', [chain.from, 'latest'])).toBe(false);
    expect(await rpc.call('ots_hasCode', [chain.counter, '0x0'])).toBe(false);
  });

  it('ots_getBlockDetails: header without transactions, their count, issuance and fees', async () => {
    const n = Number(trioBlock);
    const d = await rpc.call<{ block: Obj; issuance: Obj; totalFees: string }>('ots_getBlockDetails', [n]);
    const receipts = await rpc.call<Obj[]>('eth_getBlockReceipts', [trioBlock]);
    const fees = receipts.reduce((s, r) => s + BigInt(r.gasUsed as string) * BigInt(r.effectiveGasPrice as string), 0n);
    expect(d.totalFees).toBe(hexOf(fees));
    expect(d.issuance).toEqual({ blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' });
    expect(d.block.transactionCount).toBe(3);
    expect(d.block.logsBloom).toBeNull();
    expect(d.block.transactions).toBeUndefined();
    const block = await rpc.call<Obj>('eth_getBlockByNumber', [trioBlock, false]);
    expect(d.block.hash).toBe(block.hash);
    expect(d.block.gasUsed).toBe(block.gasUsed);
    expect(await rpc.call('ots_getBlockDetailsByHash', [block.hash])).toEqual(d);
    expect(await rpc.call('ots_getBlockDetails', [10_000])).toBeNull();
  });

  it('ots_getBlockTransactions pages from the end of the block, inputs cut to the selector', async () => {
    const n = Number(trioBlock);
    const p0 = await rpc.call<{ fullblock: Obj; receipts: Obj[] }>('ots_getBlockTransactions', [n, 0, 2]);
    const txs = p0.fullblock.transactions as Obj[];
    expect(txs.map((t) => t.hash)).toEqual([trio[1], trio[2]]);
    expect(txs[0].input).toBe(SEL.increment);
    expect(p0.fullblock.transactionCount).toBe(3);
    expect(p0.receipts.map((r) => r.transactionHash)).toEqual([trio[1], trio[2]]);
    const block = await rpc.call<Obj>('eth_getBlockByNumber', [trioBlock, false]);
    expect(p0.receipts[0]).toMatchObject({ logs: null, logsBloom: null, timestamp: block.timestamp, status: '0x1' });
    const p1 = await rpc.call<{ fullblock: Obj }>('ots_getBlockTransactions', [n, 1, 2]);
    expect((p1.fullblock.transactions as Obj[]).map((t) => t.hash)).toEqual([trio[0]]);
    const deploy = await rpc.call<{ fullblock: Obj }>('ots_getBlockTransactions', [
      Number((await rpc.call<Obj>('eth_getTransactionReceipt', [chain.tx.deploy2])).blockNumber),
      0,
      10,
    ]);
    expect((deploy.fullblock.transactions as Obj[])[0].input).toBe(SEL.deploy2);
  });

  it('ots_searchTransactionsBefore/After page through the sender history, whole blocks at a time', async () => {
    const count = Number(await rpc.call<string>('eth_getTransactionCount', [chain.from, 'latest']));
    // The sender sent `count` transactions; the last block holds the trio.
    const first = await rpc.call<{ txs: Obj[]; receipts: Obj[]; firstPage: boolean; lastPage: boolean }>(
      'ots_searchTransactionsBefore',
      [chain.from, 0, 2],
    );
    // Page size 2, but the trio's block is never cut in half.
    expect(first.txs.map((t) => t.hash)).toEqual([trio[2], trio[1], trio[0]]);
    expect(first.receipts.map((r) => r.transactionHash)).toEqual([trio[2], trio[1], trio[0]]);
    expect(first.receipts[0].timestamp).toMatch(/^0x[0-9a-f]+$/);
    expect(first).toMatchObject({ firstPage: true, lastPage: false });
    // Walk back to the genesis, as Otterscan's "older" button does.
    const seen = first.txs.map((t) => t.hash);
    let before = Number(first.txs[first.txs.length - 1].blockNumber);
    for (let guard = 0; guard < 20; guard++) {
      const page = await rpc.call<{ txs: Obj[]; firstPage: boolean; lastPage: boolean }>(
        'ots_searchTransactionsBefore',
        [chain.from, before, 2],
      );
      expect(page.firstPage).toBe(false);
      seen.push(...page.txs.map((t) => t.hash));
      if (page.lastPage) break;
      before = Number(page.txs[page.txs.length - 1].blockNumber);
    }
    expect(seen).toHaveLength(count);
    const nonces = [];
    for (const h of seen) nonces.push(Number((await rpc.call<Obj>('eth_getTransactionByHash', [h])).nonce));
    expect(nonces).toEqual([...Array(count).keys()].reverse());
    // From the genesis: the two oldest, still newest first.
    const oldest = await rpc.call<{ txs: Obj[]; firstPage: boolean; lastPage: boolean }>(
      'ots_searchTransactionsAfter',
      [chain.from, 0, 2],
    );
    expect(oldest.txs.map((t) => t.hash)).toEqual([seen[count - 2], seen[count - 1]]);
    expect(oldest).toMatchObject({ firstPage: false, lastPage: true });
    const newest = await rpc.call<{ txs: Obj[]; firstPage: boolean }>('ots_searchTransactionsAfter', [
      chain.from,
      Number(trioBlock) - 1,
      2,
    ]);
    expect(newest.txs.map((t) => t.hash)).toEqual([trio[2], trio[1], trio[0]]);
    expect(newest.firstPage).toBe(true);
  });

  it('finds a transaction by sender and nonce, and a contract creator', async () => {
    expect(await rpc.call('ots_getTransactionBySenderAndNonce', [chain.from, hexOf(0)])).toBe(
      (await rpc.call<{ txs: Obj[] }>('ots_searchTransactionsAfter', [chain.from, 0, 1])).txs[0].hash,
    );
    const nested = await rpc.call<Obj>('eth_getTransactionByHash', [chain.tx.nested]);
    expect(await rpc.call('ots_getTransactionBySenderAndNonce', [chain.from, Number(nested.nonce)])).toBe(
      chain.tx.nested,
    );
    expect(await rpc.call('ots_getTransactionBySenderAndNonce', [chain.from, 10_000])).toBeNull();
    const counterDeploy = await rpc.call('ots_getTransactionBySenderAndNonce', [chain.from, 0]);
    expect(await rpc.call('ots_getContractCreator', [chain.counter])).toEqual({
      hash: counterDeploy,
      creator: chain.from,
    });
    // A contract made by a contract: the factory is its creator.
    const [, create] = await rpc.call<{ result: { address: string } }[]>('trace_transaction', [chain.tx.deploy]);
    expect(await rpc.call('ots_getContractCreator', [create.result.address])).toEqual({
      hash: chain.tx.deploy,
      creator: chain.factory,
    });
    expect(await rpc.call('ots_getContractCreator', [chain.from])).toBeNull();
  });

  it('ots_traceTransaction, ots_getInternalOperations and ots_getTransactionError', async () => {
    expect(await rpc.call('ots_traceTransaction', [chain.tx.nested])).toEqual([
      { type: 'CALL', depth: 0, from: chain.from, to: ADDR.A, value: '0x0', input: '0x', output: '0x' },
      { type: 'CALL', depth: 1, from: ADDR.A, to: ADDR.C, value: '0x0', input: '0x', output: `0x${'00'.repeat(31)}2a` },
      { type: 'STATICCALL', depth: 1, from: ADDR.A, to: ADDR.C, value: null, input: '0x', output: '0x' },
      { type: 'DELEGATECALL', depth: 1, from: ADDR.A, to: ADDR.R, value: null, input: '0x', output: '0x' },
      { type: 'CALL', depth: 1, from: ADDR.A, to: ADDR.S, value: '0x0', input: '0x', output: '0x' },
      { type: 'SELFDESTRUCT', depth: 2, from: ADDR.S, to: ADDR.B, value: '0x5', input: '0x', output: '0x' },
    ]);
    // Erigon's types: 0 transfer, 1 self-destruct, 2 create, 3 create2.
    expect(await rpc.call('ots_getInternalOperations', [chain.tx.nested])).toEqual([
      { type: 1, from: ADDR.S, to: ADDR.B, value: '0x5' },
    ]);
    const [, create2] = await rpc.call<{ result: { address: string } }[]>('trace_transaction', [chain.tx.deploy2]);
    expect(await rpc.call('ots_getInternalOperations', [chain.tx.deploy2])).toEqual([
      { type: 3, from: chain.factory, to: create2.result.address, value: '0x0' },
    ]);
    const err = await rpc.call<string>('ots_getTransactionError', [chain.tx.fail]);
    expect(err.slice(0, 10)).toBe('0x08c379a0');
    expect(await rpc.call('ots_getTransactionError', [chain.tx.increment])).toBe('0x');
  });

  it('erigon_getHeaderByNumber gives the header fields', async () => {
    const h = await rpc.call<Obj>('erigon_getHeaderByNumber', [Number(trioBlock)]);
    const b = await rpc.call<Obj>('eth_getBlockByNumber', [trioBlock, false]);
    expect(h.hash).toBe(b.hash);
    expect(h.stateRoot).toBe(b.stateRoot);
    expect(h.transactions).toBeUndefined();
    expect(await rpc.call('erigon_getHeaderByNumber', [10_000])).toBeNull();
  });
});

describe('ots_ without the explorer index', () => {
  it('is not mounted: rpc:ots declares the index, which a node without the explorer does not run', async () => {
    const node = await startNode({ explorer: false });
    try {
      const rpc = rpcClient(node.url);
      const [from] = await rpc.call<string[]>('eth_accounts');
      const r = await rpc.raw('ots_searchTransactionsBefore', [from, 0, 10]);
      expect(r.error?.code).toBe(-32601);
      expect((await rpc.raw('ots_getApiLevel')).error?.code).toBe(-32601);
    } finally {
      await node.close();
    }
  });
});
