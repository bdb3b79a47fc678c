import { describe, expect, it } from 'vitest';
import { Hardhat2AshlarProvider } from './hardhat2/Hardhat2AshlarProvider.js';
import { LazyAshlarProvider } from './lazyProvider.js';
import type { AshlarHardhatOptions } from './options.js';
import { startAshlar } from './startAshlar.js';

/** startAshlar, counting its calls. */
function countingStart() {
  const calls: AshlarHardhatOptions[] = [];
  const start = (o: AshlarHardhatOptions) => {
    calls.push(o);
    return startAshlar(o);
  };
  return { calls, start };
}

describe('LazyAshlarProvider', () => {
  it('starts its chain on the first request, once, and answers EIP-1193, send and sendAsync', async () => {
    const { calls, start } = countingStart();
    const provider = new LazyAshlarProvider({ chainId: 1337 }, start);
    expect(calls).toHaveLength(0);
    try {
      const [a, b] = await Promise.all([
        provider.request({ method: 'eth_chainId' }),
        provider.send('eth_blockNumber', []),
      ]);
      expect(a).toBe('0x539');
      expect(b).toBe('0x0');
      expect(calls).toHaveLength(1);
      const response = await new Promise((res, rej) =>
        provider.sendAsync({ id: 7, method: 'net_version' }, (e, r) => (e ? rej(e) : res(r))),
      );
      expect(response).toEqual({ jsonrpc: '2.0', id: 7, result: '1337' });
    } finally {
      await provider.close();
    }
  });

  it('rejects with the node error code and message', async () => {
    const provider = new LazyAshlarProvider();
    try {
      await expect(provider.request({ method: 'eth_noSuchMethod' })).rejects.toMatchObject({ code: -32601 });
    } finally {
      await provider.close();
    }
  });

  it('closes nothing when never started', async () => {
    const { calls, start } = countingStart();
    await new LazyAshlarProvider({}, start).close();
    expect(calls).toHaveLength(0);
  });
});

describe('Hardhat2AshlarProvider', () => {
  it("answers hardhat test's stack-trace count without starting a chain", async () => {
    const { calls, start } = countingStart();
    const provider = new Hardhat2AshlarProvider({}, start);
    expect(await provider.send('hardhat_getStackTraceFailuresCount')).toBe(0);
    expect(calls).toHaveLength(0);
  });

  it('sends Hardhat-style fees by default: an EIP-1559 transaction', async () => {
    const provider = new Hardhat2AshlarProvider();
    try {
      const [from, to] = await provider.send<string[]>('eth_accounts');
      const hash = await provider.send('eth_sendTransaction', [{ from, to, value: '0x1' }]);
      const tx = await provider.send<{ type: string }>('eth_getTransactionByHash', [hash]);
      expect(tx.type).toBe('0x2');
    } finally {
      await provider.close();
    }
  });
});
