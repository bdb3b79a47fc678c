// The upstream side of a fork against Anvil 1.7.1 as the upstream: its answers to the calls a fork
// makes (batched eth_getBalance/eth_getTransactionCount/eth_getCode, eth_getStorageAt with a
// QUANTITY slot, at a block number) read the seeded state at N, not the state after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ForkStateSource,
  UpstreamClient,
  memoryForkCache,
  probeUpstream,
} from '../packages/core/src/fork/upstream/index.js';
import { type Peer, startAnvil } from './helpers/devPeers.js';
import { type FaultProxy, startFaultProxy } from './helpers/faultProxy.js';
import { CODE, CONTRACT, RICH, bytes, hexOf, word } from './helpers/forkSeed.js';

let anvil: Peer;
let proxy: FaultProxy;
let N: bigint;

async function call(method: string, params: unknown[] = []): Promise<unknown> {
  const answer = await anvil.call(method, params);
  if (answer.error) throw new Error(`anvil ${method}: ${answer.error.message}`);
  return answer.result;
}

beforeAll(async () => {
  anvil = await startAnvil();
  await call('anvil_setBalance', [RICH, '0x3039']);
  await call('anvil_setNonce', [RICH, '0x7']);
  await call('anvil_setCode', [CONTRACT, CODE]);
  await call('anvil_setStorageAt', [CONTRACT, word(0n), word(42n)]);
  await call('anvil_setStorageAt', [CONTRACT, word(0x10n), word(0xbeefn)]);
  await call('evm_mine');
  N = BigInt((await call('eth_blockNumber')) as string);
  // After N, by transactions (Anvil files dev edits made after a block under that block's state):
  // one pays RICH, one runs the contract, whose code stores 1 in slot 0.
  const [from] = (await call('eth_accounts')) as string[];
  // Anvil answers a send before it mines: wait for each receipt.
  const mined = async (hash: unknown): Promise<void> => {
    for (let i = 0; i < 200 && (await call('eth_getTransactionReceipt', [hash])) === null; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  await mined(await call('eth_sendTransaction', [{ from, to: RICH, value: '0x5' }]));
  await mined(await call('eth_sendTransaction', [{ from, to: CONTRACT, gas: '0x186a0' }]));
  expect(await call('eth_getBalance', [RICH, 'latest'])).toBe('0x303e');
  expect(await call('eth_getStorageAt', [CONTRACT, '0x0', 'latest'])).toBe(word(1n));
  proxy = await startFaultProxy(anvil.url as string);
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.close();
});

describe('an Anvil upstream', () => {
  it('answers a fork’s reads at N, one batch per account, and survives a 503 and a 429', async () => {
    const client = new UpstreamClient({ url: proxy.url, backoff: { baseMs: 5, maxMs: 20 } });
    const source = new ForkStateSource(client, N, memoryForkCache({ maxEntries: 100 }));
    expect(await probeUpstream(client)).toEqual({ chainId: 31337n, latest: N + 2n });
    proxy.reset();
    proxy.enqueue({ kind: 'status', status: 503 }, { kind: 'status', status: 429, retryAfter: '0' });
    expect(await source.getAccount(bytes(RICH))).toEqual({ balance: 12345n, nonce: 7n, code: new Uint8Array() });
    expect(hexOf((await source.getAccount(bytes(CONTRACT))).code)).toBe(CODE);
    const words = await Promise.all([0n, 0x10n, 5n].map((s) => source.getStorage(bytes(CONTRACT), bytes(word(s)))));
    expect(words.map(hexOf)).toEqual([word(42n), word(0xbeefn), word(0n)]);
    // 503 and 429, then the account's batch; the second account; the three slots in one batch
    expect(proxy.counters.requests).toBe(5);
    expect(client.stats.retries).toBe(2);
    await client.close();
  });
});
