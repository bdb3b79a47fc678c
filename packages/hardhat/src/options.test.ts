import { describe, expect, it } from 'vitest';
import { toNodeOptions } from './options.js';

describe('toNodeOptions', () => {
  it('defaults to an in-memory chain with Hardhat-style send defaults', () => {
    expect(toNodeOptions()).toEqual({ memory: true, sendDefaults: 'hardhat', chain: {} });
  });

  it('maps storage, hardfork, chain id and accounts onto createNode options', () => {
    const o = toNodeOptions({
      db: './chain',
      hardfork: 'prague',
      chainId: 1337,
      accounts: { count: 3, mnemonic: 'm', balance: '1000' },
      sendDefaults: 'spec',
    });
    expect(o).toEqual({
      db: './chain',
      sendDefaults: 'spec',
      chain: { hardfork: 'prague', chainId: 1337, accounts: 3, mnemonic: 'm', balance: 1000n },
    });
  });

  it('lets `node` options win, merging its chain options', () => {
    const o = toNodeOptions({
      hardfork: 'prague',
      node: { chain: { gasLimit: 60_000_000n }, mining: { automine: false } },
    });
    expect(o.chain).toEqual({ hardfork: 'prague', gasLimit: 60_000_000n });
    expect(o.mining).toEqual({ automine: false });
  });
});
