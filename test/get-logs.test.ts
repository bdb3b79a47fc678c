import { createNode } from 'ashlar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Kernel = Awaited<ReturnType<typeof createNode>>;
interface Log {
  address: string;
  topics: string[];
  transactionHash: string;
  blockNumber: string;
  logIndex: string;
  transactionIndex: string;
}

// Runtime: LOG1 with topic 0xaa over 32 zero bytes, then LOG2 with topics 0xbb, CALLER. Init code
// returns it. Each call therefore emits two logs: block-wide log indexes must count both.
const RUNTIME = '60aa60206000a13360bb60206000a200';
const INIT = `0x6f${RUNTIME}60005260106010f3`;
const T_AA = `0x${'aa'.padStart(64, '0')}`;
const T_BB = `0x${'bb'.padStart(64, '0')}`;

describe('eth_getLogs', () => {
  let k: Kernel;
  let emitter: string;
  const emits: string[] = [];

  beforeAll(async () => {
    k = await createNode();
    const [a0] = k.chain.accounts.map((a) => a.address.toString());
    const deploy = await k.request<string>({
      method: 'eth_sendTransaction',
      params: [{ from: a0, data: INIT, gas: '0x100000' }],
    });
    emitter = (await k.request<{ contractAddress: string }>({ method: 'eth_getTransactionReceipt', params: [deploy] }))
      .contractAddress;
    for (let i = 0; i < 6; i++) {
      const from = k.chain.accounts[i % 3].address.toString();
      emits.push(
        await k.request<string>({ method: 'eth_sendTransaction', params: [{ from, to: emitter, gas: '0x20000' }] }),
      );
      // empty blocks between the emitting ones
      await k.request({ method: 'evm_mine' });
    }
  });
  afterAll(() => k.close());

  it('returns every log of the range with block-wide log indexes and the emitting transaction', async () => {
    const logs = await k.request<Log[]>({
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', toBlock: 'latest', address: emitter }],
    });
    expect(logs).toHaveLength(12);
    expect(logs.map((l) => l.transactionHash)).toEqual(emits.flatMap((h) => [h, h]));
    for (let i = 0; i < logs.length; i += 2) {
      expect([logs[i].logIndex, logs[i + 1].logIndex]).toEqual(['0x0', '0x1']);
      expect(logs[i].topics).toEqual([T_AA]);
      expect(logs[i + 1].topics[0]).toBe(T_BB);
    }
  });

  it('filters by topic position with OR lists and null wildcards', async () => {
    const a1 = k.chain.accounts[1].address.toString();
    const callerTopic = `0x${a1.slice(2).padStart(64, '0')}`;
    const byCaller = await k.request<Log[]>({
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', topics: [null, callerTopic] }],
    });
    expect(byCaller).toHaveLength(2); // accounts[1] emitted twice (i = 1, 4), one LOG2 each
    const either = await k.request<Log[]>({
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', topics: [[T_AA, T_BB]] }],
    });
    expect(either).toHaveLength(12);
    const none = await k.request<Log[]>({
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', topics: [T_AA, callerTopic] }],
    });
    expect(none).toHaveLength(0);
  });

  it('answers a sub-range and a single block by hash', async () => {
    const r2 = await k.request<{ blockNumber: string; blockHash: string }>({
      method: 'eth_getTransactionReceipt',
      params: [emits[2]],
    });
    const one = await k.request<Log[]>({ method: 'eth_getLogs', params: [{ blockHash: r2.blockHash }] });
    expect(one.map((l) => l.transactionHash)).toEqual([emits[2], emits[2]]);
    const range = await k.request<Log[]>({
      method: 'eth_getLogs',
      params: [{ fromBlock: r2.blockNumber, toBlock: r2.blockNumber, address: [emitter] }],
    });
    expect(range).toHaveLength(2);
  });

  it('forgets logs of blocks removed when the head moves back', async () => {
    const r5 = await k.request<{ blockNumber: string }>({ method: 'eth_getTransactionReceipt', params: [emits[5]] });
    await k.chain.exclusive(() => k.chain.revertTo(BigInt(r5.blockNumber) - 1n));
    const logs = await k.request<Log[]>({
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', toBlock: 'latest', address: emitter }],
    });
    expect(logs).toHaveLength(10);
  });
});
