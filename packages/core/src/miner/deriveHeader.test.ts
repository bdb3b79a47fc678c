import { createBlockHeader } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { describe, expect, it } from 'vitest';
import { deriveHeader } from './deriveHeader.js';

const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: Hardfork.Prague });
const bytes = (n: number, v: number) => new Uint8Array(n).fill(v);

describe('deriveHeader', () => {
  it('equals the header createBlockHeader makes from the same data', () => {
    const data = {
      parentHash: bytes(32, 1),
      number: 7n,
      coinbase: bytes(20, 2),
      timestamp: 1_700_000_000n,
      gasLimit: 30_000_000n,
      mixHash: bytes(32, 3),
      baseFeePerGas: 875_000_000n,
      parentBeaconBlockRoot: new Uint8Array(32),
    };
    const opts = { common };
    const base = createBlockHeader({ ...data, gasUsed: 0n }, opts);
    // A hash the base already cached must not carry over.
    const baseHash = base.hash();
    const sealed = {
      stateRoot: bytes(32, 4),
      transactionsTrie: bytes(32, 5),
      receiptTrie: bytes(32, 6),
      logsBloom: bytes(256, 7),
      gasUsed: 21_000n,
      blobGasUsed: 0n,
      requestsHash: bytes(32, 8),
      withdrawalsRoot: undefined,
    };
    const made = createBlockHeader({ ...data, ...sealed }, opts);
    const derived = deriveHeader(base, sealed);
    expect(derived.toJSON()).toEqual(made.toJSON());
    expect(derived.hash()).toEqual(made.hash());
    expect(derived.serialize()).toEqual(made.serialize());
    expect(Object.isFrozen(derived)).toBe(true);
    // The base keeps its own fields and hash.
    expect(base.gasUsed).toBe(0n);
    expect(base.hash()).toEqual(baseHash);
    expect(baseHash).not.toEqual(derived.hash());
  });
});
