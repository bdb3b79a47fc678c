import { Address, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { ConsoleEvent } from '../console/ConsoleCapture.js';
import { createKernel } from './createKernel.js';

describe('warmCallPath (run by the first kernel of a process)', () => {
  it('leaves the chain as it was and sends no event', async () => {
    const kernel = await createKernel();
    try {
      const { chain, events } = kernel.services;
      expect(chain.head.number).toBe(0n);
      expect(bytesToHex(chain.headStateRoot)).toBe(bytesToHex(chain.head.block.header.stateRoot));
      // The calls ran from the zero address, which runTx gives an account inside the reverted call only.
      const zero = await chain.exclusive(() => chain.vm.stateManager.getAccount(new Address(new Uint8Array(20))));
      expect(zero).toBeUndefined();
      const seen: ConsoleEvent[] = [];
      events.on('console', (e: ConsoleEvent) => seen.push(e));
      // A call like the warm-up's, asked again: an address without code answers empty.
      const out = await kernel.services.executor.call(
        { to: chain.accounts[1].address, data: new Uint8Array(36) },
        chain.head,
      );
      expect(out.length).toBe(0);
      expect(seen).toEqual([]);
    } finally {
      await kernel.close();
    }
  });
});
