/**
 * Tracing over JSON-RPC: geth's callTracer / prestateTracer / struct logger, debug_traceCall, and
 * Parity's trace_* on hand-assembled contracts whose every figure is computed by hand below
 * (test/helpers/traceChain.ts), plus the Solidity fixtures for revert reasons and CREATE2.
 */
import { getCreate2Address, keccak256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';
import { startNode, type TestNode } from './helpers/node.js';
import {
  ADDR,
  C_CODE,
  type Json,
  type Rpc,
  SALT,
  SEL,
  type TraceChain,
  buildTraceChain,
  rpcClient,
} from './helpers/traceChain.js';

const WORD_2A = `0x${'00'.repeat(31)}2a`;
const TOPIC_1 = `0x${'00'.repeat(31)}01`;
const SLOT_0 = `0x${'00'.repeat(32)}`;
const ONE = `0x${'00'.repeat(31)}01`;
const hexOf = (n: number | bigint) => `0x${n.toString(16)}`;

// The nested transaction (gas limit 1,000,000, no calldata) to A, by hand:
//   CALL C:         5 PUSH1 + PUSH20 + PUSH2 = 21, CALL 2600 (C cold) + 3 (memory 0..32) + 1033 (C), POP 2 = 3659
//   STATICCALL C:   4 PUSH1 + PUSH20 + PUSH2 = 18, 100 (C warm) + 65535 (all of 0xffff: C's LOG1 fails), POP 2 = 65655
//   DELEGATECALL R: 18, 2600 (R cold) + 6, POP 2 = 2626
//   CALL S:         21, 2600 (S cold) + 32603 (S), POP 2 = 35226
// Execution 107166 (no refunds), plus 21000 intrinsic = 128166.
const NESTED_EXEC_GAS = 107_166;
const NESTED_GAS_USED = 128_166;

describe('tracing JSON-RPC methods', () => {
  let node: TestNode;
  let rpc: Rpc;
  let chain: TraceChain;

  beforeAll(async () => {
    node = await startNode();
    rpc = rpcClient(node.url);
    chain = await buildTraceChain(rpc);
  });
  afterAll(() => node.close());

  const callTrace = (hash: string, tracerConfig: Record<string, unknown> = {}) =>
    rpc.call<Record<string, Json>>('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig }]);
  const receiptOf = (hash: string) => rpc.call<Record<string, string>>('eth_getTransactionReceipt', [hash]);

  describe('callTracer', () => {
    it('gives the call tree of the nested transaction as geth does', async () => {
      const trace = await callTrace(chain.tx.nested, { withLog: true });
      expect(trace).toEqual({
        type: 'CALL',
        from: chain.from,
        to: ADDR.A,
        // geth: the top frame's gas is the transaction's limit, its gasUsed the receipt's.
        gas: '0xf4240',
        gasUsed: hexOf(NESTED_GAS_USED),
        input: '0x',
        value: '0x0',
        calls: [
          {
            type: 'CALL',
            from: ADDR.A,
            to: ADDR.C,
            gas: '0xffff',
            gasUsed: hexOf(1033),
            input: '0x',
            output: WORD_2A,
            value: '0x0',
            logs: [{ address: ADDR.C, topics: [TOPIC_1], data: WORD_2A, index: '0x0', position: '0x0' }],
          },
          // No value for STATICCALL; an exceptional halt uses all its gas and has no output.
          {
            type: 'STATICCALL',
            from: ADDR.A,
            to: ADDR.C,
            gas: '0xffff',
            gasUsed: '0xffff',
            input: '0x',
            error: 'write protection',
          },
          {
            type: 'DELEGATECALL',
            from: ADDR.A,
            to: ADDR.R,
            gas: '0xffff',
            gasUsed: '0x6',
            input: '0x',
            error: 'execution reverted',
            value: '0x0',
          },
          {
            type: 'CALL',
            from: ADDR.A,
            to: ADDR.S,
            gas: '0xffff',
            gasUsed: hexOf(32_603),
            input: '0x',
            value: '0x0',
            calls: [
              { type: 'SELFDESTRUCT', from: ADDR.S, to: ADDR.B, gas: '0x0', gasUsed: '0x0', input: '0x', value: '0x5' },
            ],
          },
        ],
      });
      expect((await receiptOf(chain.tx.nested)).gasUsed).toBe(hexOf(NESTED_GAS_USED));
    });

    it('leaves logs out without withLog and sub-calls out with onlyTopCall', async () => {
      const plain = await callTrace(chain.tx.nested);
      expect(JSON.stringify(plain)).not.toContain('"logs"');
      const top = await callTrace(chain.tx.nested, { onlyTopCall: true });
      expect(top.calls).toBeUndefined();
      expect(top.gasUsed).toBe(hexOf(NESTED_GAS_USED));
    });

    it('decodes Error(string) and Panic(uint256) into revertReason, as geth', async () => {
      const fail = await callTrace(chain.tx.fail);
      expect(fail.error).toBe('execution reverted');
      expect(fail.revertReason).toBe('Counter: failed on purpose');
      expect(String(fail.output).slice(0, 10)).toBe('0x08c379a0');
      const panic = await callTrace(chain.tx.panic);
      expect(panic.revertReason).toBe('division or modulo by zero');
      expect(panic.output).toBe(`0x4e487b71${'00'.repeat(31)}12`);
      expect((await receiptOf(chain.tx.fail)).status).toBe('0x0');
    });

    it('names CREATE2 frames and the address EIP-1014 gives them', async () => {
      const counterInit = loadArtifact('Counter').bytecode;
      const expected = getCreate2Address(chain.factory, SALT, keccak256(counterInit)).toLowerCase();
      const trace = await callTrace(chain.tx.deploy2);
      const [create] = trace.calls as Record<string, Json>[];
      expect(create.type).toBe('CREATE2');
      expect(create.from).toBe(chain.factory);
      expect(create.to).toBe(expected);
      expect(create.input).toBe(counterInit);
      expect(create.value).toBe('0x0');
      expect(trace.output).toBe(`0x${'00'.repeat(12)}${expected.slice(2)}`);
    });

    it('traces a whole block by number and by hash', async () => {
      const r = await receiptOf(chain.tx.nested);
      const byNumber = await rpc.call<{ txHash: string; result: Record<string, Json> }[]>('debug_traceBlockByNumber', [
        r.blockNumber,
        { tracer: 'callTracer' },
      ]);
      expect(byNumber).toHaveLength(1);
      expect(byNumber[0].txHash).toBe(chain.tx.nested);
      expect(byNumber[0].result.gasUsed).toBe(hexOf(NESTED_GAS_USED));
      const byHash = await rpc.call('debug_traceBlockByHash', [r.blockHash, { tracer: 'callTracer' }]);
      expect(byHash).toEqual(byNumber);
    });

    it('refuses a tracer it does not have', async () => {
      const r = await rpc.raw('debug_traceTransaction', [chain.tx.nested, { tracer: 'fourByteTracer' }]);
      expect(r.error?.code).toBe(-32000);
      expect(r.error?.message).toContain('fourByteTracer');
    });
  });

  describe('prestateTracer', () => {
    it('lists the accounts the increment touched, as they were before it', async () => {
      const r = await receiptOf(chain.tx.increment);
      const before = hexOf(BigInt(r.blockNumber) - 1n);
      const tx = await rpc.call<Record<string, string>>('eth_getTransactionByHash', [chain.tx.increment]);
      const pre = await rpc.call<Record<string, Record<string, Json>>>('debug_traceTransaction', [
        chain.tx.increment,
        { tracer: 'prestateTracer' },
      ]);
      const block = await rpc.call<Record<string, string>>('eth_getBlockByNumber', [r.blockNumber, false]);
      expect(Object.keys(pre).sort()).toEqual([chain.counter, chain.from, block.miner].sort());
      expect(pre[chain.from]).toEqual({
        balance: await rpc.call('eth_getBalance', [chain.from, before]),
        nonce: Number(tx.nonce),
      });
      const code = await rpc.call<string>('eth_getCode', [chain.counter, before]);
      expect(pre[chain.counter]).toEqual({
        balance: '0x0',
        code,
        // geth 1.16.3+ (go-ethereum#32391): the code's hash beside it
        codeHash: keccak256(code),
        nonce: 1,
        storage: { [SLOT_0]: SLOT_0 },
      });
    });

    it('in diffMode gives only what changed: the count slot 0 → 1, the sender nonce and balance', async () => {
      const r = await receiptOf(chain.tx.increment);
      const before = hexOf(BigInt(r.blockNumber) - 1n);
      const tx = await rpc.call<Record<string, string>>('eth_getTransactionByHash', [chain.tx.increment]);
      const block = await rpc.call<Record<string, string>>('eth_getBlockByNumber', [r.blockNumber, false]);
      const diff = await rpc.call<{ pre: Record<string, Json>; post: Record<string, Json> }>('debug_traceTransaction', [
        chain.tx.increment,
        { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
      ]);
      const balance0 = BigInt(await rpc.call<string>('eth_getBalance', [chain.from, before]));
      const paid = BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
      const tip = BigInt(r.gasUsed) * (BigInt(r.effectiveGasPrice) - BigInt(block.baseFeePerGas));
      const miner0 = BigInt(await rpc.call<string>('eth_getBalance', [block.miner, before]));
      expect(diff.post).toEqual({
        [chain.counter]: { storage: { [SLOT_0]: ONE } },
        [chain.from]: { balance: hexOf(balance0 - paid), nonce: Number(tx.nonce) + 1 },
        [block.miner]: { balance: hexOf(miner0 + tip) },
      });
      // A slot that was zero is left out of `pre` (geth drops empty slots there).
      const code = await rpc.call<string>('eth_getCode', [chain.counter, before]);
      expect(diff.pre[chain.counter]).toEqual({ balance: '0x0', code, codeHash: keccak256(code), nonce: 1 });
      expect(diff.pre[chain.from]).toEqual({ balance: hexOf(balance0), nonce: Number(tx.nonce) });
    });
  });

  describe('struct logger', () => {
    it('logs every opcode of the call to C with its gas and stack', async () => {
      const t = await rpc.call<{
        gas: number;
        failed: boolean;
        returnValue: string;
        structLogs: Record<string, Json>[];
      }>('debug_traceTransaction', [chain.tx.plainC, { enableMemory: true }]);
      expect(t.gas).toBe(21_000 + 1033);
      expect(t.failed).toBe(false);
      expect(t.returnValue).toBe(WORD_2A);
      const ops = t.structLogs.map((l) => [l.pc, l.op, l.gasCost]);
      expect(ops).toEqual([
        [0, 'PUSH1', 3],
        [2, 'PUSH1', 3],
        [4, 'MSTORE', 6],
        [5, 'PUSH1', 3],
        [7, 'PUSH1', 3],
        [9, 'PUSH1', 3],
        [11, 'LOG1', 1006],
        [12, 'PUSH1', 3],
        [14, 'PUSH1', 3],
        [16, 'RETURN', 0],
      ]);
      expect(t.structLogs[0]).toMatchObject({ gas: 1_000_000 - 21_000, depth: 1, stack: [], memory: [] });
      expect(t.structLogs[6]).toMatchObject({ stack: ['0x1', '0x20', '0x0'], memory: [WORD_2A] });
      const bare = await rpc.call<{ structLogs: Record<string, Json>[] }>('debug_traceTransaction', [
        chain.tx.plainC,
        { disableStack: true, limit: 3 },
      ]);
      expect(bare.structLogs).toHaveLength(3);
      expect(bare.structLogs[0].stack).toBeUndefined();
      expect(bare.structLogs[0].memory).toBeUndefined();
    });
  });

  it('struct logger: SLOAD and SSTORE show the slots read and written, in execution order', async () => {
    const t = await rpc.call<{ structLogs: Record<string, Json>[] }>('debug_traceTransaction', [chain.tx.increment]);
    const loads = t.structLogs.flatMap((l, i) => (l.op === 'SLOAD' ? [i] : []));
    const store = t.structLogs.find((l) => l.op === 'SSTORE');
    expect(loads.length).toBeGreaterThan(0);
    const storeAt = t.structLogs.findIndex((l) => l.op === 'SSTORE');
    for (const i of loads) {
      // count was 0 before the increment, 1 once stored (the event reads it back); the step after
      // an SLOAD is the next opcode, with the loaded value on top of its stack.
      const value = i < storeAt ? SLOT_0 : ONE;
      expect(t.structLogs[i].storage).toEqual({ [SLOT_0]: value });
      expect(t.structLogs[i + 1].pc).toBe((t.structLogs[i].pc as number) + 1);
      expect((t.structLogs[i + 1].stack as string[]).at(-1)).toBe(i < storeAt ? '0x0' : '0x1');
    }
    expect(store?.storage).toEqual({ [SLOT_0]: ONE });
    const gasCosts = t.structLogs.map((l) => l.gas as number);
    for (let i = 1; i < gasCosts.length; i++)
      if (t.structLogs[i].depth === t.structLogs[i - 1].depth)
        expect(gasCosts[i]).toBe(gasCosts[i - 1] - (t.structLogs[i - 1].gasCost as number));
  });

  describe('debug_traceCall', () => {
    it('traces a call request with any tracer, state overrides included', async () => {
      const fail = await rpc.call<Record<string, Json>>('debug_traceCall', [
        { from: chain.from, to: chain.counter, data: SEL.fail },
        'latest',
        { tracer: 'callTracer' },
      ]);
      expect(fail.revertReason).toBe('Counter: failed on purpose');
      const fresh = '0x00000000000000000000000000000000000c0ffe';
      const over = await rpc.call<Record<string, Json>>('debug_traceCall', [
        { from: chain.from, to: fresh, gas: '0x186a0' },
        'latest',
        { tracer: 'callTracer', stateOverrides: { [fresh]: { code: C_CODE } } },
      ]);
      expect(over).toMatchObject({ to: fresh, gas: '0x186a0', gasUsed: hexOf(21_000 + 1033), output: WORD_2A });
      const logs = await rpc.call<{ gas: number; structLogs: unknown[] }>('debug_traceCall', [
        { from: chain.from, to: fresh },
        'latest',
        { stateOverrides: { [fresh]: { code: C_CODE } } },
      ]);
      expect(logs.structLogs).toHaveLength(10);
      expect(logs.gas).toBe(22_033);
    });
  });

  describe('Parity trace_*', () => {
    const nestedTraces = (pos: Record<string, Json>) => [
      {
        action: {
          from: chain.from,
          callType: 'call',
          gas: hexOf(1_000_000 - 21_000),
          input: '0x',
          to: ADDR.A,
          value: '0x0',
        },
        result: { gasUsed: hexOf(NESTED_EXEC_GAS), output: '0x' },
        subtraces: 4,
        traceAddress: [],
        type: 'call',
        ...pos,
      },
      {
        action: { from: ADDR.A, callType: 'call', gas: '0xffff', input: '0x', to: ADDR.C, value: '0x0' },
        result: { gasUsed: hexOf(1033), output: WORD_2A },
        subtraces: 0,
        traceAddress: [0],
        type: 'call',
        ...pos,
      },
      {
        action: { from: ADDR.A, callType: 'staticcall', gas: '0xffff', input: '0x', to: ADDR.C, value: '0x0' },
        error: 'Mutable Call In Static Context',
        result: null,
        subtraces: 0,
        traceAddress: [1],
        type: 'call',
        ...pos,
      },
      {
        action: { from: ADDR.A, callType: 'delegatecall', gas: '0xffff', input: '0x', to: ADDR.R, value: '0x0' },
        error: 'Reverted',
        result: { gasUsed: '0x6', output: '0x' },
        subtraces: 0,
        traceAddress: [2],
        type: 'call',
        ...pos,
      },
      {
        action: { from: ADDR.A, callType: 'call', gas: '0xffff', input: '0x', to: ADDR.S, value: '0x0' },
        result: { gasUsed: hexOf(32_603), output: '0x' },
        subtraces: 1,
        traceAddress: [3],
        type: 'call',
        ...pos,
      },
      {
        action: { address: ADDR.S, refundAddress: ADDR.B, balance: '0x5' },
        result: null,
        subtraces: 0,
        traceAddress: [3, 0],
        type: 'suicide',
        ...pos,
      },
    ];

    it('trace_transaction and trace_block list the frames depth-first with traceAddress', async () => {
      const r = await receiptOf(chain.tx.nested);
      const pos = {
        blockHash: r.blockHash,
        blockNumber: Number(r.blockNumber),
        transactionHash: chain.tx.nested,
        transactionPosition: 0,
      };
      expect(await rpc.call('trace_transaction', [chain.tx.nested])).toEqual(nestedTraces(pos));
      expect(await rpc.call('trace_block', [r.blockNumber])).toEqual(nestedTraces(pos));
      expect(await rpc.call('trace_transaction', [`0x${'11'.repeat(32)}`])).toBeNull();
    });

    it('trace_replayTransaction gives the stateDiff of the increment', async () => {
      const r = await receiptOf(chain.tx.increment);
      const before = hexOf(BigInt(r.blockNumber) - 1n);
      const tx = await rpc.call<Record<string, string>>('eth_getTransactionByHash', [chain.tx.increment]);
      const out = await rpc.call<Record<string, Json>>('trace_replayTransaction', [
        chain.tx.increment,
        ['trace', 'stateDiff'],
      ]);
      const diff = out.stateDiff as Record<string, Record<string, Json>>;
      expect(diff[chain.counter]).toEqual({
        balance: '=',
        code: '=',
        nonce: '=',
        storage: { [SLOT_0]: { '*': { from: SLOT_0, to: ONE } } },
      });
      const balance0 = BigInt(await rpc.call<string>('eth_getBalance', [chain.from, before]));
      expect(diff[chain.from]).toEqual({
        balance: {
          '*': { from: hexOf(balance0), to: hexOf(balance0 - BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice)) },
        },
        code: '=',
        nonce: { '*': { from: tx.nonce, to: hexOf(BigInt(tx.nonce) + 1n) } },
        storage: {},
      });
      expect(out.vmTrace).toBeNull();
      expect(out.output).toBe('0x');
      expect((out.trace as Json[]).length).toBe(1);
    });

    it('trace_replayTransaction marks a created contract with "+"', async () => {
      const out = await rpc.call<Record<string, Json>>('trace_replayTransaction', [chain.tx.deploy, ['stateDiff']]);
      const [, create] = (await rpc.call<Record<string, Json>[]>('trace_transaction', [chain.tx.deploy])) as {
        result: { address: string; code: string };
      }[];
      const born = (out.stateDiff as Record<string, Record<string, Json>>)[create.result.address];
      expect(born.balance).toEqual({ '+': '0x0' });
      expect(born.nonce).toEqual({ '+': '0x1' });
      expect(born.code).toEqual({ '+': create.result.code });
      expect(out.trace).toEqual([]);
    });

    it('trace_call runs a request and trace_replayBlockTransactions a block', async () => {
      const out = await rpc.call<Record<string, Json>>('trace_call', [
        { from: chain.from, to: ADDR.C, gas: '0x186a0' },
        ['trace'],
        'latest',
      ]);
      expect(out.output).toBe(WORD_2A);
      expect(out.stateDiff).toBeNull();
      expect(out.trace).toEqual([
        {
          action: {
            from: chain.from,
            callType: 'call',
            gas: hexOf(100_000 - 21_000),
            input: '0x',
            to: ADDR.C,
            value: '0x0',
          },
          result: { gasUsed: hexOf(1033), output: WORD_2A },
          subtraces: 0,
          traceAddress: [],
          type: 'call',
        },
      ]);
      const r = await receiptOf(chain.tx.nested);
      const replays = await rpc.call<Record<string, Json>[]>('trace_replayBlockTransactions', [
        r.blockNumber,
        ['trace'],
      ]);
      expect(replays).toHaveLength(1);
      expect(replays[0].transactionHash).toBe(chain.tx.nested);
      expect((replays[0].trace as Json[]).length).toBe(6);
    });
  });

  describe('revert reasons outside traces', () => {
    it('eth_call and eth_estimateGas answer error 3 with the revert bytes, as geth', async () => {
      const call = await rpc.raw('eth_call', [{ from: chain.from, to: chain.counter, data: SEL.fail }, 'latest']);
      expect(call.error?.code).toBe(3);
      expect(call.error?.message).toBe('execution reverted: Counter: failed on purpose');
      expect(String(call.error?.data).slice(0, 10)).toBe('0x08c379a0');
      const est = await rpc.raw('eth_estimateGas', [{ from: chain.from, to: chain.counter, data: SEL.fail }]);
      expect(est.error).toEqual(call.error);
      const panic = await rpc.raw('eth_call', [{ from: chain.from, to: chain.counter, data: SEL.panic }, 'latest']);
      expect(panic.error?.code).toBe(3);
      expect(panic.error?.message).toContain('division or modulo by zero');
      expect(panic.error?.message).toContain('0x12');
      expect(panic.error?.data).toBe(`0x4e487b71${'00'.repeat(31)}12`);
    });

    it('a custom error stays raw: NotOwner(address) selector and argument in data', async () => {
      const other = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
      const r = await rpc.raw('eth_call', [{ from: other, to: chain.counter, data: '0x72f7a030' }, 'latest']);
      const selector = keccak256(new TextEncoder().encode('NotOwner(address)')).slice(0, 10);
      expect(r.error?.code).toBe(3);
      expect(r.error?.message).toBe('execution reverted');
      expect(r.error?.data).toBe(`${selector}${'00'.repeat(12)}${other.slice(2)}`);
    });

    it("a reverting eth_sendTransaction under automine is mined (status 0) and answers Hardhat's error with its hash", async () => {
      const r = await rpc.raw('eth_sendTransaction', [
        { from: chain.from, to: chain.counter, data: SEL.fail, gas: '0x30000' },
      ]);
      expect(r.error?.code).toBe(-32603);
      const data = r.error?.data as { txHash: string; data: string };
      expect(data.data).toMatch(/^0x08c379a0/);
      const hash = data.txHash;
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect((await receiptOf(hash)).status).toBe('0x0');
      expect(await rpc.call('ots_getTransactionError', [hash])).toMatch(/^0x08c379a0/);
    });
  });
});
