import { cryptoImpl, createKernel } from '@ashlar/core';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';

describe('Keccak-256 implementation', () => {
  it('is hash-wasm once a kernel has started, and hashes as @noble/hashes does', async () => {
    const kernel = await createKernel();
    try {
      expect(cryptoImpl.impl.keccak).toBe('wasm');
      const chain = kernel.services.chain;
      const header = chain.head.block.header;
      // A fresh hash through the selected keccak (the header's cached one was made at genesis).
      const common = chain.common.customCrypto.keccak256 as (b: Uint8Array) => Uint8Array;
      expect(bytesToHex(common(header.serialize()))).toBe(bytesToHex(keccak_256(header.serialize())));
      expect(bytesToHex(chain.head.hash)).toBe(bytesToHex(keccak_256(header.serialize())));
    } finally {
      await kernel.close();
    }
  });
});
