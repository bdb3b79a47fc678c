/**
 * Findings 8 and 9 of issue #20: one POST of 1,000 `anvil_dumpState` held the loop for 11–18 s
 * (a 48 MiB answer); 1,000 `debug_traceCall` of a short loop wedged the node at 2.6 GiB. A
 * batch now has a cost budget (batchCostBudget: traces count 100, dumps 500) and a ceiling on
 * its answers' size (maxResponseBytes, geth's 25 MB); past either, each remaining request gets
 * an error naming the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../helpers/contracts.js';
import {
  type AttackNode,
  type Baseline,
  baseline,
  expectBack,
  settle,
  report,
  rpc,
  rssMiB,
  startAttackNode,
  underProbe,
} from './harness.js';

/** JUMPDEST PUSH1 0 JUMP. */
const LOOP = '0x5b600056';
const LOOP_ADDR = '0x00000000000000000000000000000000000100f1';

let node: AttackNode;
let base: Baseline;
beforeAll(async () => {
  node = await startAttackNode();
  await node.kernel.request({ method: 'hardhat_setCode', params: [LOOP_ADDR, LOOP] });
  for (let i = 0; i < 200; i++) {
    const to = `0x${(0x1000 + i).toString(16).padStart(40, '0')}`;
    await node.kernel.request({
      method: 'eth_sendTransaction',
      params: [{ from: DEV_ACCOUNTS[0].address, to, value: '0x1' }],
    });
  }
  await settle(node);
  base = await baseline(node);
}, 120_000);
afterAll(async () => {
  await node?.close();
});

type Item = { id: number; result?: unknown; error?: { code: number; message: string } };

async function batchAttack(name: string, items: unknown[]): Promise<Item[]> {
  const baseRss = rssMiB();
  const { result, m } = await underProbe(node.url, async () => {
    const r = await rpc(node.url, items);
    return { bytes: r.text.length, answers: r.json() as Item[] };
  });
  const ok = result.answers.filter((a) => a.result !== undefined).length;
  const codes = [...new Set(result.answers.filter((a) => a.error).map((a) => a.error?.code))].join(', ');
  report(name, m, `${ok} results, ${result.answers.length - ok} errors (${codes}), ${result.bytes} bytes`);
  expect(m.failedProbes).toBe(0);
  // Stated bound: no probe waits 3 s while the batch runs (the answer of a trace batch is
  // serialised whole, ~25 MB, which takes a few hundred ms on a loaded 2-core machine).
  expect(m.worstProbeMs).toBeLessThan(3000);
  // Stated bound: the batch does not grow the node by more than 600 MiB.
  expect(m.peakRssMiB - baseRss).toBeLessThan(600);
  return result.answers;
}

describe('batch cost budget and answer size (#20 findings 8, 9)', () => {
  it('1,000 anvil_dumpState: 20 run, the rest get the budget error, ids kept', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'anvil_dumpState',
      params: [],
    }));
    const answers = await batchAttack('batch of 1000 anvil_dumpState', items);
    expect(answers).toHaveLength(1000);
    expect(answers.map((a) => a.id)).toEqual(items.map((i) => i.id));
    expect(answers.filter((a) => a.result !== undefined)).toHaveLength(20);
    const refused = answers.filter((a) => a.error);
    expect(refused).toHaveLength(980);
    expect(refused[0].error?.code).toBe(-32005);
    expect(refused[0].error?.message).toContain('(batchCostBudget, --batch-cost-budget)');
  });

  it('1,000 debug_traceCall of a short loop: bounded by the budget and the answer ceiling', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'debug_traceCall',
      params: [{ to: LOOP_ADDR, gas: '0x30d40' }, 'latest', {}],
    }));
    const answers = await batchAttack('batch of 1000 debug_traceCall (200k-gas loop)', items);
    expect(answers).toHaveLength(1000);
    const ran = answers.filter((a) => a.result !== undefined).length;
    expect(ran).toBeGreaterThan(0);
    expect(ran).toBeLessThanOrEqual(100);
    const messages = new Set(answers.filter((a) => a.error).map((a) => a.error?.message.split(':')[0]));
    expect([...messages].every((m) => m === 'response too large' || m === 'batch cost budget exceeded')).toBe(true);
  });

  it('a batch of cheap calls is untouched', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'eth_chainId',
      params: [],
    }));
    const r = await rpc(node.url, items);
    expect((r.json() as Item[]).every((a) => a.result === '0x7a69')).toBe(true);
  });
});

describe('after the attacks', () => {
  it('the node has closed their sockets and freed their memory', async () => {
    await expectBack(node, base);
  });
});
