/**
 * Finding 2 of issue #20: `GET /api/v2/blocks?block_number=100000000` counted down one missing
 * block at a time from the page key and held the event loop for 11–17 s (2^31 never finished).
 * A page key above the head starts from the head, as if no key were given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AttackNode,
  type Baseline,
  baseline,
  expectBack,
  httpGet,
  report,
  startAttackNode,
  underProbe,
} from './harness.js';

let node: AttackNode;
let base: Baseline;
beforeAll(async () => {
  node = await startAttackNode();
  await node.kernel.request({ method: 'hardhat_mine', params: ['0x3'] });
  base = await baseline(node);
});
afterAll(async () => {
  await node?.close();
});

describe('explorer page keys above the head (#20 finding 2)', () => {
  for (const key of ['100000000', '2147483648', '18446744073709551615']) {
    it(`/blocks?block_number=${key} starts from the head, probes answered throughout`, async () => {
      const { result, m } = await underProbe(node.url, async () => {
        const res = await httpGet(`${node.url}/api/v2/blocks?block_number=${key}&items_count=50`);
        return { status: res.status, body: res.json() as { items: { height: number }[] } };
      });
      report(`/blocks?block_number=${key}`, m, `${result.status}, first height ${result.body.items[0]?.height}`);
      expect(result.status).toBe(200);
      expect(result.body.items.map((b) => b.height)).toEqual([3, 2, 1, 0]);
      expect(m.failedProbes).toBe(0);
      expect(m.worstProbeMs).toBeLessThan(1000);
    });
  }

  it('a key at or below the head still pages as before', async () => {
    const res = await httpGet(`${node.url}/api/v2/blocks?block_number=2&items_count=50`);
    expect((res.json() as { items: { height: number }[] }).items.map((b) => b.height)).toEqual([1, 0]);
  });
});

describe('after the attacks', () => {
  it('the node has closed their sockets and freed their memory', async () => {
    await expectBack(node, base);
  });
});
