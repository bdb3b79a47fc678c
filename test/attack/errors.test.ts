/**
 * Findings 15, 16 and 17 of issue #20: error messages ended in @ethereumjs' internal dumps
 * (`… (vm hf=bpo2 …`, `-> block number=… hash=… -> tx type=…`), a 1 MB method name came back
 * whole in the error, and `{"id":9007199254740993}` was answered with id 9007199254740992.
 * geth and Anvil answer the id byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../helpers/contracts.js';
import {
  type AttackNode,
  type Baseline,
  baseline,
  expectBack,
  report,
  rpc,
  startAttackNode,
  underProbe,
} from './harness.js';

let node: AttackNode;
let base: Baseline;
beforeAll(async () => {
  node = await startAttackNode();
  base = await baseline(node);
});
afterAll(async () => {
  await node?.close();
});

type Answer = { error?: { code: number; message: string } };

describe('errors that help and do not leak (#20 findings 15-17)', () => {
  const lowFee = { from: DEV_ACCOUNTS[0].address, to: DEV_ACCOUNTS[1].address, maxFeePerGas: '0x1' };
  for (const [method, params] of [
    ['eth_call', [lowFee, 'latest']],
    ['eth_estimateGas', [lowFee, 'latest']],
    ['eth_createAccessList', [lowFee, 'latest']],
    ['debug_traceCall', [lowFee, 'latest', {}]],
  ] as const) {
    it(`${method} with maxFeePerGas below the base fee: a message without the engine's dump`, async () => {
      const a = (await rpc(node.url, { jsonrpc: '2.0', id: 1, method, params })).json() as Answer;
      expect(a.error, method).toBeDefined();
      const message = a.error?.message ?? '';
      expect(message).not.toMatch(/hf=| -> |block number=|tx type=/);
      expect(message.length).toBeGreaterThan(0);
    });
  }

  it('a 1 MB method name: a short error, probes answered', async () => {
    const name = `x${'a'.repeat(1_000_000)}`;
    const { result, m } = await underProbe(node.url, async () => {
      const r = await rpc(node.url, { jsonrpc: '2.0', id: 7, method: name, params: [] });
      return { bytes: r.text.length, a: r.json() as Answer };
    });
    report('1 MB method name', m, `${result.bytes} bytes: ${result.a.error?.message}`);
    expect(result.a.error?.code).toBe(-32601);
    expect(result.a.error?.message).toBe(`the method x${'a'.repeat(63)}… does not exist/is not available`);
    expect(result.bytes).toBeLessThan(300);
  });

  it('ids above 2^53 come back byte for byte, alone and in a batch', async () => {
    const one = await rpc(node.url, '{"jsonrpc":"2.0","id":9007199254740993,"method":"eth_chainId","params":[]}');
    expect(one.text).toBe('{"jsonrpc":"2.0","id":9007199254740993,"result":"0x7a69"}');
    const batch = await rpc(
      node.url,
      '[{"jsonrpc":"2.0","id":18446744073709551617,"method":"eth_chainId","params":[]},' +
        '{"jsonrpc":"2.0","id":2,"method":"eth_chainId"},' +
        '{"jsonrpc":"2.0","id":0.30000000000000004441,"method":"nope"}]',
    );
    expect(batch.text).toContain('"id":18446744073709551617,"result":"0x7a69"');
    expect(batch.text).toContain('"id":2,"result":"0x7a69"');
    expect(batch.text).toContain('"id":0.30000000000000004441,"error"');
  });
});

describe('after the attacks', () => {
  it('the node has closed their sockets and freed their memory', async () => {
    await expectBack(node, base);
  });
});
