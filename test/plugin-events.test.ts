/**
 * The `logs` event (issue #22): after each block with logs, every log decoded, with its
 * transaction hash and indexes. The transactions below run constructors that emit LOG1 with a
 * known topic and data, so the expected values are what the EVM code wrote.
 */
import { type ChainLog, createKernel, type Kernel } from '@ashlar/core';
import { ethPlugin } from '@ashlar/rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

/** Constructor: MSTORE(0, 42); LOG1(memory 0..32, topic 7); STOP (deploys nothing). */
const EMIT_ONE = '0x602a600052600760206000a100';
/** Constructor: the same log twice (topics 7 and 8). */
const EMIT_TWO = '0x602a600052600760206000a1600860206000a100';
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('the logs event', () => {
  let kernel: Kernel;
  const seen: ChainLog[][] = [];
  beforeAll(async () => {
    kernel = await createKernel({ plugins: [ethPlugin] });
    kernel.events.on('logs', (logs) => seen.push(logs));
  });
  afterAll(() => kernel.close());

  const send = (data: string) =>
    kernel.request<string>({ method: 'eth_sendTransaction', params: [{ from: DEV_ACCOUNTS[0].address, data }] });

  it('carries each log with its address, transaction hash and indexes', async () => {
    const first = await send(EMIT_ONE);
    const second = await send(EMIT_TWO);
    const r2 = await kernel.request<{ contractAddress: string; blockHash: string }>({
      method: 'eth_getTransactionReceipt',
      params: [second],
    });
    // a value transfer in between has no logs: no event
    await kernel.request({
      method: 'eth_sendTransaction',
      params: [{ from: DEV_ACCOUNTS[0].address, to: DEV_ACCOUNTS[1].address, value: '0x1' }],
    });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toHaveLength(1);
    expect(seen[0][0]).toMatchObject({ transactionHash: first, logIndex: 0, transactionIndex: 0, blockNumber: 1n });
    expect(seen[1]).toEqual([
      {
        address: r2.contractAddress.toLowerCase(),
        topics: [word(7)],
        data: word(42),
        blockNumber: 2n,
        blockHash: r2.blockHash,
        transactionHash: second,
        transactionIndex: 0,
        logIndex: 0,
      },
      {
        address: r2.contractAddress.toLowerCase(),
        topics: [word(8)],
        data: word(42),
        blockNumber: 2n,
        blockHash: r2.blockHash,
        transactionHash: second,
        transactionIndex: 0,
        logIndex: 1,
      },
    ]);
  });
});
