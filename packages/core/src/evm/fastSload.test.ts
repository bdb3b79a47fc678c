import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { type EVM, createEVM } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bigIntToBytes, bytesToHex, hexToBytes, setLengthLeft, stripHexPrefix } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { NO_WARM_SLOTS, originalStorageOps, slotKey, stripHexPrefixFast, warmPrecompiles } from './fastSload.js';
import { installEngineSpeedups, opcodeTable } from './internals.js';

describe('SLOAD and the warm-address journal without the hex round trips', () => {
  it('slotKey is setLengthLeft(bigIntToBytes(key), 32) for edge keys', () => {
    const keys = [0n, 1n, 0xffn, 0x100n, 0x1234n, 2n ** 64n, 2n ** 255n, 2n ** 256n - 1n, 0xabcdefn << 100n];
    for (const k of keys) expect(bytesToHex(slotKey(k))).toBe(bytesToHex(setLengthLeft(bigIntToBytes(k), 32)));
  });

  it('stripHexPrefixFast answers as stripHexPrefix, also for what is not hex', () => {
    const inputs = ['', '0x', '0x0', '0xAbCdEf09', '0xg1', '0x0x12', 'abc', '00aa', 'x0', '0X12', '0x12 ', ' 0x12'];
    for (const s of inputs) expect(stripHexPrefixFast(s)).toBe(stripHexPrefix(s));
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return undefined;
    };
    expect(err(() => stripHexPrefixFast(12))).toBe(err(() => stripHexPrefix(12 as unknown as string)));
    expect(err(() => stripHexPrefixFast(12))).toBeDefined();
  });

  it('runs SLOADs with the same gas, errors and results as the original handlers, on every fork used', async () => {
    await installEngineSpeedups();
    expect(originalStorageOps.sloadGas).toBeDefined();
    expect(originalStorageOps.sloadOp).toBeDefined();
    expect(originalStorageOps.addAlwaysWarmAddress).toBeDefined();
    const programs: [string, bigint][] = [
      // SSTORE 7 at slot 1, SLOAD slot 1 twice (cold, then warm), SLOAD an unset big slot, return the sum
      ['0x600760015560015460015401' + '7f' + 'ff'.repeat(32) + '540160005260206000f3', 200_000n],
      // SLOAD slot 0 with just enough gas on Berlin+ (2 for PUSH1, 2100 cold) minus one: out of gas
      ['0x600054', 3n + 2099n],
      // SLOAD on an empty stack
      ['0x54', 100_000n],
    ];
    const to = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
    for (const hardfork of [Hardfork.Istanbul, Hardfork.London, Hardfork.Prague, Hardfork.Osaka]) {
      const run = async (stock: boolean) => {
        const evm: EVM = await createEVM({
          common: new Common({ chain: Mainnet, hardfork }),
          stateManager: new MerkleStateManager(),
        });
        if (stock) {
          const table = opcodeTable<{ opcodeInfo: unknown; opHandler: unknown; gasHandler?: unknown }>(evm);
          const entry = table[0x54];
          if (!entry) throw new Error('no SLOAD');
          table[0x54] = { ...entry, opHandler: originalStorageOps.sloadOp, gasHandler: originalStorageOps.sloadGas };
        }
        const out: unknown[] = [];
        for (const [code, gasLimit] of programs) {
          await evm.stateManager.putCode(to, hexToBytes(code as `0x${string}`));
          const r = await evm.runCall({ to, gasLimit });
          out.push([
            r.execResult.exceptionError?.error,
            r.execResult.executionGasUsed,
            bytesToHex(r.execResult.returnValue),
          ]);
        }
        return out;
      };
      const fast = await run(false);
      expect(fast[0]).toEqual([undefined, expect.any(BigInt), expect.stringMatching(/^0x0+e$/)]);
      expect(fast).toEqual(await run(true));
    }
  });

  it('addAlwaysWarmAddress and addAlwaysWarmSlot warm and list the same keys and slots as the originals', async () => {
    await installEngineSpeedups();
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
    type J = {
      alwaysWarmJournal: Map<string, Set<string>>;
      accessList?: Map<string, Set<string>>;
      addAlwaysWarmAddress(a: string, l?: boolean): void;
      addAlwaysWarmSlot(a: string, s: string, l?: boolean): void;
    };
    const proto = Object.getPrototypeOf(evm.journal) as J;
    const journalOf = (stock: boolean) => {
      const j = Object.create(proto) as J;
      j.alwaysWarmJournal = new Map();
      j.accessList = new Map();
      if (stock) {
        j.addAlwaysWarmAddress = originalStorageOps.addAlwaysWarmAddress as J['addAlwaysWarmAddress'];
        j.addAlwaysWarmSlot = originalStorageOps.addAlwaysWarmSlot as J['addAlwaysWarmSlot'];
      }
      return j;
    };
    const fast = journalOf(false);
    const stock = journalOf(true);
    expect(originalStorageOps.addAlwaysWarmSlot).toBeDefined();
    const steps: [string, string | undefined, boolean][] = [
      ['0x00000000000000000000000000000000000000aa', undefined, true],
      ['00000000000000000000000000000000000000bb', undefined, false],
      ['0xABCDEF0000000000000000000000000000000001', undefined, true],
      ['0x00000000000000000000000000000000000000aa', undefined, false],
      ['0x00000000000000000000000000000000000000bb', `0x${'01'.padStart(64, '0')}`, false],
      ['0x00000000000000000000000000000000000000cc', `0x${'02'.padStart(64, '0')}`, true],
      ['00000000000000000000000000000000000000cc', '03'.padStart(64, '0'), true],
      ['0x00000000000000000000000000000000000000dd', undefined, false],
    ];
    for (const [a, slot, list] of steps) {
      if (slot === undefined) {
        fast.addAlwaysWarmAddress(a, list);
        stock.addAlwaysWarmAddress(a, list);
      } else {
        fast.addAlwaysWarmSlot(a, slot, list);
        stock.addAlwaysWarmSlot(a, slot, list);
      }
    }
    const shape = (m?: Map<string, Set<string>>) =>
      [...(m ?? new Map<string, Set<string>>())].map(([k, v]) => [k, [...v]]);
    expect(shape(fast.alwaysWarmJournal)).toEqual(shape(stock.alwaysWarmJournal));
    expect(shape(fast.accessList)).toEqual(shape(stock.accessList));
    // Addresses without slots share the empty set; it stays empty and refuses changes.
    expect(fast.alwaysWarmJournal.get('00000000000000000000000000000000000000dd')).toBe(NO_WARM_SLOTS);
    expect(NO_WARM_SLOTS.size).toBe(0);
    expect(() => (NO_WARM_SLOTS as Set<string>).add('x')).toThrow();
    // The slot warmth the interpreter asks about answers the same.
    const slot = (n: number) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);
    for (const a of ['bb', 'cc', 'dd', 'aa', 'ee']) {
      const addr = hexToBytes(`0x${a.padStart(40, '0')}`);
      for (const n of [1, 2, 3, 4]) {
        const ask = (j: J) =>
          (
            proto as unknown as { isWarmedStorage(this: J, a: Uint8Array, s: Uint8Array): boolean }
          ).isWarmedStorage.call(Object.assign(j, { journal: new Map() }), addr, slot(n));
        expect(ask(fast)).toBe(ask(stock));
      }
    }
  });
});

describe('warmPrecompiles', () => {
  it('leaves the journal as the addAlwaysWarmAddress loop does, on every fork used', async () => {
    await installEngineSpeedups();
    for (const hardfork of [Hardfork.Berlin, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]) {
      const [a, b] = await Promise.all(
        [0, 1].map(() => createEVM({ common: new Common({ chain: Mainnet, hardfork }) })),
      );
      const ja = a.journal as unknown as { alwaysWarmJournal: Map<string, Set<string>> };
      const jb = b.journal as unknown as { alwaysWarmJournal: Map<string, Set<string>> };
      // Twice: the second time from the map kept for this precompiles map.
      for (let round = 0; round < 2; round++) {
        a.journal.cleanJournal();
        b.journal.cleanJournal();
        warmPrecompiles(a.journal as never, a.precompiles as Map<string, unknown>);
        for (const key of b.precompiles.keys()) b.journal.addAlwaysWarmAddress(key);
        expect([...ja.alwaysWarmJournal.keys()]).toEqual([...jb.alwaysWarmJournal.keys()]);
        expect(ja.alwaysWarmJournal.size).toBeGreaterThan(8);
        for (const v of ja.alwaysWarmJournal.values()) expect(v).toBe(NO_WARM_SLOTS);
        // The copy is the journal's own: a slot warmed later does not reach the kept map.
        a.journal.addAlwaysWarmSlot('0x0000000000000000000000000000000000000001', '0x01');
        expect(ja.alwaysWarmJournal.get('0000000000000000000000000000000000000001')?.has('01')).toBe(true);
      }
      // Entries already there: the loop, which keeps them.
      a.journal.cleanJournal();
      a.journal.addAlwaysWarmSlot('0x00000000000000000000000000000000000000aa', '0x02');
      warmPrecompiles(a.journal as never, a.precompiles as Map<string, unknown>);
      expect(ja.alwaysWarmJournal.get('00000000000000000000000000000000000000aa')?.has('02')).toBe(true);
      expect(ja.alwaysWarmJournal.size).toBe(a.precompiles.size + 1);
    }
  });
});
