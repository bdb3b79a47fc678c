import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { Address, bytesToBigInt, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { installEngineSpeedups } from './internals.js';

const activated = (c: Common): number[] => (c as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache;

describe('engine speed-ups', () => {
  it('isActivatedEIP answers as the activated-EIP list does, on every hardfork and after a change', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    for (const hf of [Hardfork.Chainstart, Hardfork.London, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]) {
      common.setHardfork(hf);
      const list = activated(common);
      for (let eip = 0; eip < 8200; eip++) expect(common.isActivatedEIP(eip)).toBe(list.includes(eip));
    }
    // A copy shares the list until it changes hardfork, then answers for its own.
    const copy = common.copy();
    copy.setHardfork(Hardfork.London);
    expect(copy.isActivatedEIP(4844)).toBe(false);
    expect(common.isActivatedEIP(4844)).toBe(true);
  });

  it('runs code the same with its jump analysis cached: a JUMP loop counts to 10 twice', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const evm = await createEVM({ common });
    // i = 0; loop: i += 1; if (i < 10) goto loop; return i
    //   PUSH1 0 | JUMPDEST(2) PUSH1 1 ADD DUP1 PUSH1 10 GT PUSH1 2 JUMPI | PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const code = hexToBytes('0x60005b60010180600a1160025760005260206000f3');
    const to = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
    await evm.stateManager.putCode(to, code);
    for (let i = 0; i < 2; i++) {
      const res = await evm.runCall({ to, gasLimit: 100_000n });
      expect(res.execResult.exceptionError).toBeUndefined();
      expect(bytesToBigInt(res.execResult.returnValue)).toBe(10n);
    }
  });
});
