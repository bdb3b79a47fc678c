import type { Kernel } from '@ashlar/core';
import { createNode } from 'ashlar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';
import { startFaultProxy } from './helpers/faultProxy.js';
import { type TestNode, startNode } from './helpers/node.js';

const [alice] = DEV_ACCOUNTS;
const known = '0x000000000000000000000000000000000000bee1';
const unknown = '0x000000000000000000000000000000000000bee2';

async function call(k: Kernel, method: string, params: unknown[] = []): Promise<unknown> {
  return k.request({ method, params });
}

/** An upstream with two funded accounts, and a fork of it that has read one of them. */
async function forkThenStopUpstream(mineFirst: boolean): Promise<{ fork: Kernel; host: string }> {
  const upstream: TestNode = await startNode();
  await call(upstream.kernel, 'hardhat_setBalance', [known, '0x64']);
  await call(upstream.kernel, 'hardhat_setBalance', [unknown, '0x65']);
  const fork = await createNode({ fork: { url: upstream.url, retries: 0, cache: false } });
  expect(await call(fork, 'eth_getBalance', [known, 'latest'])).toBe('0x64');
  // A first block reads what every block touches upstream (the system contracts).
  if (mineFirst) await call(fork, 'evm_mine');
  await upstream.close();
  return { fork, host: new URL(upstream.url).host };
}

describe('fork whose upstream stops answering', () => {
  let fork: Kernel;
  let host: string;

  beforeAll(async () => {
    ({ fork, host } = await forkThenStopUpstream(true));
  });

  afterAll(async () => {
    await fork?.close();
  });

  it('a read that needs the upstream fails with an error naming it; what was read still answers', async () => {
    const err = await call(fork, 'eth_getBalance', [unknown, 'latest']).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32000 });
    expect(String((err as Error).message)).toContain(host);
    expect(await call(fork, 'eth_getBalance', [known, 'latest'])).toBe('0x64');
  });

  it('a transaction that needs the upstream is refused, and the next one that does not is mined', async () => {
    const failed = await call(fork, 'eth_sendTransaction', [{ from: alice.address, to: unknown, value: '0x1' }]).catch(
      (e: unknown) => e,
    );
    expect(String((failed as Error).message)).toContain(host);
    const hash = await call(fork, 'eth_sendTransaction', [{ from: alice.address, to: known, value: '0x1' }]);
    const receipt = (await call(fork, 'eth_getTransactionReceipt', [hash])) as { status: string };
    expect(receipt.status).toBe('0x1');
    expect(await call(fork, 'eth_getBalance', [known, 'latest'])).toBe('0x65');
  });
});

describe('fork whose upstream stops before its first block', () => {
  it('blocks fail with the upstream named (their system calls need it) and the node keeps serving', async () => {
    const { fork, host } = await forkThenStopUpstream(false);
    try {
      for (let i = 0; i < 2; i++) {
        const failed = await call(fork, 'eth_sendTransaction', [
          { from: alice.address, to: known, value: '0x1' },
        ]).catch((e: unknown) => e);
        expect(String((failed as Error).message)).toContain(host);
      }
      expect(await call(fork, 'eth_blockNumber')).toBe('0x0');
      expect(await call(fork, 'eth_getBalance', [known, 'latest'])).toBe('0x64');
    } finally {
      await fork.close();
    }
  });
});

describe('hardhat_reset to a fork whose upstream fails', () => {
  it('is an error naming the upstream, and the chain stays as it was', async () => {
    const upstream = await startNode();
    const proxy = await startFaultProxy(upstream.url);
    const fork = await createNode({ fork: { url: upstream.url, retries: 0, cache: false } });
    try {
      await call(fork, 'eth_sendTransaction', [{ from: alice.address, to: known, value: '0x5' }]);
      const before = await call(fork, 'hardhat_metadata');
      // The new upstream answers its chain id, latest block and header, then fails every state read.
      proxy.enqueue({ kind: 'slow', ms: 0 }, { kind: 'slow', ms: 0 });
      proxy.always({ kind: 'status', status: 503 });
      const err = await call(fork, 'hardhat_reset', [{ forking: { jsonRpcUrl: proxy.url } }]).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: -32000 });
      expect(String((err as Error).message)).toContain(new URL(proxy.url).host);
      expect(await call(fork, 'hardhat_metadata')).toEqual(before);
      expect(await call(fork, 'eth_getBalance', [known, 'latest'])).toBe('0x5');
      const hash = await call(fork, 'eth_sendTransaction', [{ from: alice.address, to: known, value: '0x1' }]);
      expect(await call(fork, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' });
    } finally {
      await fork.close();
      await proxy.close();
      await upstream.close();
    }
  });
});
