import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { ConsoleEvent } from '../console/ConsoleCapture.js';
import { createKernel } from './createKernel.js';
import { CREATION_CODE, NO_ACCOUNT, SCRATCH, VIEW_CODE, WRITING_CODE } from './warmContractPath.js';

/** The 32-byte word 42, which both codes return (SSTORE(0, 42) then SLOAD(0), or the override's slot). */
const WORD_42 = `0x${'00'.repeat(31)}2a`;

describe('warmContractPath (run by the first kernel of a process)', () => {
  it('leaves the chain as it was and sends no event', async () => {
    const kernel = await createKernel();
    try {
      const { chain, events, executor } = kernel.services;
      expect(chain.head.number).toBe(0n);
      expect(bytesToHex(chain.headStateRoot)).toBe(bytesToHex(chain.head.block.header.stateRoot));
      const sm = chain.vm.stateManager;
      expect(await chain.exclusive(() => sm.getAccount(SCRATCH))).toBeUndefined();
      expect(await chain.exclusive(() => sm.getAccount(NO_ACCOUNT))).toBeUndefined();
      const seen: unknown[] = [];
      events.on('console', (e: ConsoleEvent) => seen.push(e));
      // The warm-up's runs, asked again: the creation deploys VIEW_CODE, the writing code returns
      // the word it stored, the view code an empty slot (nothing stayed from the runs above).
      expect(bytesToHex(await executor.call({ data: CREATION_CODE }, chain.head))).toBe(bytesToHex(VIEW_CODE));
      const withCode = (code: Uint8Array) => new Map([[SCRATCH.toString(), { code }]]);
      expect(bytesToHex(await executor.call({ to: SCRATCH }, chain.head, withCode(WRITING_CODE)))).toBe(WORD_42);
      expect(bytesToHex(await executor.call({ to: SCRATCH }, chain.head, withCode(VIEW_CODE)))).toBe(
        `0x${'00'.repeat(32)}`,
      );
      expect(seen).toEqual([]);
      expect(bytesToHex(chain.headStateRoot)).toBe(bytesToHex(chain.head.block.header.stateRoot));
    } finally {
      await kernel.close();
    }
  });
});
