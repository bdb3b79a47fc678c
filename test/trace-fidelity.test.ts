/**
 * Tracing additions checked against geth's definitions: the 4byteTracer
 * (eth/tracers/native/4byte.go), the prestate tracer's `codeHash` (go-ethereum#32391, geth 1.16.3+; kept under
 * `disableCode`), and debug_traceCall's `blockOverrides` (override.BlockOverrides, plus the
 * pre-1.13 names `coinbase`/`random`/`baseFee`).
 */
import { keccak256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type TestNode } from './helpers/node.js';
import { type Json, type Rpc, SEL, type TraceChain, buildTraceChain, rpcClient } from './helpers/traceChain.js';

/** Returns NUMBER, TIMESTAMP, GASLIMIT, COINBASE, PREVRANDAO, BASEFEE as six words. */
const ENV_CODE = `0x${['43', '42', '45', '41', '44', '48'].map((op, i) => `${op}60${(i * 32).toString(16).padStart(2, '0')}52`).join('')}60c06000f3`;
const ENV = '0x00000000000000000000000000000000000e0e0e';
const word = (n: bigint | string) => (typeof n === 'string' ? n.slice(2) : n.toString(16)).padStart(64, '0');

describe('tracing fidelity', () => {
  let node: TestNode;
  let rpc: Rpc;
  let chain: TraceChain;

  beforeAll(async () => {
    node = await startNode();
    rpc = rpcClient(node.url);
    chain = await buildTraceChain(rpc);
  });
  afterAll(() => node.close());

  const traceCall = (req: Record<string, unknown>, config: Record<string, unknown>) =>
    rpc.call<Record<string, Json>>('debug_traceCall', [req, 'latest', config]);

  describe('4byteTracer', () => {
    it('counts the selector and calldata size of each call, the transaction included', async () => {
      const data = `${SEL.increment}${'00'.repeat(36)}`;
      expect(await traceCall({ from: chain.from, to: chain.counter, data }, { tracer: '4byteTracer' })).toEqual({
        [`${SEL.increment}-36`]: 1,
      });
    });

    it('leaves out calls to precompiles and calldata shorter than a selector', async () => {
      const sha256 = '0x0000000000000000000000000000000000000002';
      expect(await traceCall({ to: sha256, data: '0x1234567890' }, { tracer: '4byteTracer' })).toEqual({});
      expect(await traceCall({ to: chain.counter, data: '0x1234' }, { tracer: '4byteTracer' })).toEqual({});
    });

    it('traces a mined transaction too', async () => {
      const out = await rpc.call<Record<string, number>>('debug_traceTransaction', [
        chain.tx.increment,
        { tracer: '4byteTracer' },
      ]);
      expect(out).toEqual({ [`${SEL.increment}-0`]: 1 });
    });
  });

  describe('prestateTracer codeHash', () => {
    it('gives the keccak256 of an account’s code, also with disableCode, and none for an account without code', async () => {
      const code = await rpc.call<string>('eth_getCode', [chain.counter, 'latest']);
      const req = { from: chain.from, to: chain.counter, data: SEL.increment };
      const pre = await traceCall(req, { tracer: 'prestateTracer' });
      const counter = pre[chain.counter] as Record<string, Json>;
      expect(counter.code).toBe(code);
      expect(counter.codeHash).toBe(keccak256(code));
      expect((pre[chain.from] as Record<string, Json>).codeHash).toBeUndefined();
      const noCode = await traceCall(req, { tracer: 'prestateTracer', tracerConfig: { disableCode: true } });
      expect(noCode[chain.counter]).toMatchObject({ codeHash: keccak256(code) });
      expect((noCode[chain.counter] as Record<string, Json>).code).toBeUndefined();
    });
  });

  describe('debug_traceCall blockOverrides', () => {
    const overrides = { [ENV]: { code: ENV_CODE } };
    const env = async (blockOverrides: Record<string, string> | undefined, fees: Record<string, string> = {}) => {
      const frame = await traceCall(
        { from: chain.from, to: ENV, ...fees },
        { tracer: 'callTracer', stateOverrides: overrides, ...(blockOverrides ? { blockOverrides } : {}) },
      );
      return frame.output as string;
    };

    it('runs the call in a block with the overridden number, time, gas limit, coinbase, prevRandao and base fee', async () => {
      const out = await env(
        {
          number: '0x1234',
          time: '0x5678',
          gasLimit: '0x2000000',
          feeRecipient: '0x00000000000000000000000000000000000000ab',
          prevRandao: `0x${'77'.repeat(32)}`,
          baseFeePerGas: '0x7',
        },
        { maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x0' },
      );
      expect(out).toBe(
        `0x${word(0x1234n)}${word(0x5678n)}${word(0x2000000n)}${word('0xab')}${'77'.repeat(32)}${word(7n)}`,
      );
    });

    it('takes the names geth used before 1.13 (coinbase, random, baseFee)', async () => {
      const out = await env(
        { coinbase: '0x00000000000000000000000000000000000000cd', random: `0x${'05'.repeat(32)}`, baseFee: '0x9' },
        { maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x0' },
      );
      expect(out.slice(2 + 64 * 3)).toBe(`${word('0xcd')}${'05'.repeat(32)}${word(9n)}`);
    });

    it('leaves the block as it is without overrides', async () => {
      const head = await rpc.call<Record<string, string>>('eth_getBlockByNumber', ['latest', false]);
      const out = await env(undefined);
      expect(out.slice(2, 2 + 64 * 2)).toBe(`${word(BigInt(head.number))}${word(BigInt(head.timestamp))}`);
    });
  });

  describe('trace_filter', () => {
    it('with mode "intersection" keeps only traces whose sender and recipient are both in the sets', async () => {
      type Trace = { action: Record<string, string>; result: Record<string, string> | null; transactionHash: string };
      const traces = await rpc.call<Trace[]>('trace_filter', [
        { fromAddress: [chain.from], toAddress: [chain.counter], mode: 'intersection' },
      ]);
      expect(traces.length).toBeGreaterThan(0);
      // A creation's recipient is the contract it created (the counter's deployment matches too).
      for (const t of traces)
        expect([t.action.from, t.action.to ?? t.result?.address]).toEqual([chain.from, chain.counter]);
      expect(traces.map((t) => t.transactionHash)).toContain(chain.tx.increment);
    });

    it('caps the block range and the result count like eth_getLogs (-32005), and pages under the cap', async () => {
      const small = await startNode({ rpc: { logsMaxResults: 2, logsMaxBlockRange: 4 } });
      try {
        const r = rpcClient(small.url);
        const c = await buildTraceChain(r);
        const head = Number(await r.call<string>('eth_blockNumber'));
        const range = { fromBlock: `0x${(head - 3).toString(16)}`, toBlock: `0x${head.toString(16)}` };
        await expect(r.call('trace_filter', [{}])).rejects.toMatchObject({ rpc: { code: -32005 } });
        await expect(r.call('trace_filter', [{ ...range, fromAddress: [c.from] }])).rejects.toMatchObject({
          rpc: { code: -32005 },
        });
        const page = await r.call<unknown[]>('trace_filter', [{ ...range, fromAddress: [c.from], after: 1, count: 2 }]);
        expect(page).toHaveLength(2);
      } finally {
        await small.close();
      }
    });

    it('refuses an unknown mode and a reversed range', async () => {
      await expect(rpc.call('trace_filter', [{ mode: 'both' }])).rejects.toMatchObject({ rpc: { code: -32602 } });
      await expect(rpc.call('trace_filter', [{ fromBlock: '0x3', toBlock: '0x2' }])).rejects.toMatchObject({
        rpc: { code: -32602 },
      });
    });
  });

  describe("a block's system calls in replays", () => {
    const HISTORY = '0000f90827f1c53a10cb7a02335b175320002935';
    const BEACON_ROOTS = '000f3df6d732807ef1319fb7b8bb8522d0beac02';
    /** Calls `contract` with one word (`pushInput` leaves it on the stack) and returns its 32-byte answer. */
    const reader = (pushInput: string, contract: string) =>
      `0x${pushInput}600052602060006020600073${contract}5afa5060206000f3`;
    const send = async (to: string, code: string) => {
      await rpc.call('hardhat_setCode', [to, code]);
      const hash = await rpc.call<string>('eth_sendTransaction', [{ from: chain.from, to, gas: '0x30000' }]);
      const receipt = await rpc.call<Record<string, string>>('eth_getTransactionReceipt', [hash]);
      expect(receipt.status).toBe('0x1');
      return { hash, receipt };
    };

    it('EIP-2935: a transaction reading the parent hash from the history contract is traced as mined', async () => {
      // NUMBER - 1 as the input: the block the system call stored just before the transaction ran.
      const { hash, receipt } = await send('0x00000000000000000000000000000000000a2935', reader('4360019003', HISTORY));
      const parent = await rpc.call<Record<string, string>>('eth_getBlockByNumber', [
        `0x${(BigInt(receipt.blockNumber) - 1n).toString(16)}`,
        false,
      ]);
      const frame = await rpc.call<Record<string, Json>>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
      expect(frame.output).toBe(parent.hash);
      expect(frame.error).toBeUndefined();
    });

    it('EIP-4788: a transaction reading its block’s beacon root is traced as mined', async () => {
      // TIMESTAMP as the input: without the block's system call the contract reverts (no root stored for it).
      const { hash, receipt } = await send('0x00000000000000000000000000000000000a4788', reader('42', BEACON_ROOTS));
      const block = await rpc.call<Record<string, string>>('eth_getBlockByNumber', [receipt.blockNumber, false]);
      const frame = await rpc.call<Record<string, Json>>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
      expect(frame.output).toBe(block.parentBeaconBlockRoot);
      const [call] = frame.calls as Record<string, Json>[];
      expect(call.error).toBeUndefined();
    });
  });
});
