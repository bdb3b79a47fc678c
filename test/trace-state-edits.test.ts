import { createNode } from 'ashlar';
import type { Kernel } from '@ashlar/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A dev state edit (hardhat_setCode …) between two blocks is part of the state the next block
// is built on but of no block's state root: a trace must replay on the state the block was
// built on, or the transaction meets code that was never there.
const TARGET = '0x00000000000000000000000000000000000c0de0';
// PUSH1 42, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN
const RETURNS_42 = '0x602a60005260206000f3';
const WORD_42 = `0x${'2a'.padStart(64, '0')}`;

describe('traces after dev state edits', () => {
  let k: Kernel;
  let hash: string;
  const rpc = <T>(method: string, params: unknown[] = []) => k.request({ method, params }) as Promise<T>;

  beforeAll(async () => {
    k = await createNode();
    await rpc('hardhat_setCode', [TARGET, RETURNS_42]);
    const from = k.chain.accounts[0].address.toString();
    hash = await rpc<string>('eth_sendTransaction', [{ from, to: TARGET, gas: '0xc350' }]);
  });
  afterAll(() => k.close());

  it('callTracer sees the code set before the block', async () => {
    const trace = await rpc<{ to: string; output: string }>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
    expect(trace.to).toBe(TARGET);
    expect(trace.output).toBe(WORD_42);
  });

  it('the struct logger runs its six opcodes', async () => {
    const trace = await rpc<{ structLogs: { op: string }[]; returnValue: string }>('debug_traceTransaction', [hash]);
    expect(trace.structLogs.map((s) => s.op)).toEqual(['PUSH1', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'RETURN']);
    expect(trace.returnValue).toBe(WORD_42);
  });

  it('trace_transaction agrees', async () => {
    const [top] = await rpc<{ result: { output: string } }[]>('trace_transaction', [hash]);
    expect(top.result.output).toBe(WORD_42);
  });
});
