import { createBlockHeader } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { deriveHeader } from './deriveHeader.js';
import { execHeader } from './execHeader.js';

const bytes = (n: number, v: number) => new Uint8Array(n).fill(v);
const PRAGUE_AT = 1_700_000_100n;

/** Cancun from genesis, Prague at a timestamp: a chain whose blocks change hardfork. */
function scheduledCommon() {
  const hardforks = Mainnet.hardforks
    .filter((hf) => !['prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5'].includes(hf.name))
    .map((hf) => ({
      ...hf,
      block: hf.block === null ? null : 0,
      timestamp: hf.timestamp === undefined ? undefined : 0,
    }));
  hardforks.push({ name: 'prague', block: null, timestamp: Number(PRAGUE_AT) });
  return createCustomCommon({ chainId: 31337, hardforks }, Mainnet, { hardfork: Hardfork.Cancun });
}

function data(number: bigint, timestamp: bigint, fill: number) {
  return {
    parentHash: bytes(32, fill),
    number,
    coinbase: createAddressFromString(`0x${fill.toString(16).padStart(2, '0').repeat(20)}`),
    timestamp,
    gasLimit: 30_000_000n + number,
    mixHash: bytes(32, fill + 1),
    baseFeePerGas: 875_000_000n - number,
    excessBlobGas: number * 1000n,
    parentBeaconBlockRoot: new Uint8Array(32),
  };
}

describe('execHeader', () => {
  it('equals the header createBlockHeader makes for each block, across a scheduled hardfork', () => {
    const common = scheduledCommon();
    const opts = { common, setHardfork: true };
    const cases = [
      data(1n, PRAGUE_AT - 50n, 1),
      data(2n, PRAGUE_AT - 40n, 2),
      data(3n, PRAGUE_AT - 1n, 3),
      data(4n, PRAGUE_AT, 4),
      data(5n, PRAGUE_AT + 12n, 5),
      // back below the fork (a snapshot revert), then above again
      data(2n, PRAGUE_AT - 30n, 6),
      data(3n, PRAGUE_AT + 30n, 7),
    ];
    const made = cases.map((d) => {
      const header = execHeader(common, d, opts);
      const expected = createBlockHeader({ ...d, gasUsed: 0n }, opts);
      expect(header.toJSON()).toEqual(expected.toJSON());
      expect(header.hash()).toEqual(expected.hash());
      expect(header.serialize()).toEqual(expected.serialize());
      expect(header.common.hardfork()).toBe(expected.common.hardfork());
      expect(Object.isFrozen(header)).toBe(true);
      return header;
    });
    expect(made.map((h) => h.common.hardfork())).toEqual([
      'cancun',
      'cancun',
      'cancun',
      'prague',
      'prague',
      'cancun',
      'prague',
    ]);
    // Blocks of one hardfork after the first share its Common instead of each copying it.
    expect(made[1].common).toBe(made[0].common);
    expect(made[4].common).toBe(made[3].common);
    // Each header hashes its own fields: no hash cached from the one it came from.
    expect(new Set(made.map((h) => h.hash().toString())).size).toBe(made.length);
  });

  it('rejects what the constructor rejects', () => {
    const common = scheduledCommon();
    const opts = { common, setHardfork: true };
    execHeader(common, data(1n, PRAGUE_AT - 50n, 1), opts);
    expect(() => execHeader(common, { ...data(2n, PRAGUE_AT - 40n, 2), mixHash: bytes(31, 1) }, opts)).toThrow(
      /mixHash must be 32 bytes/,
    );
    expect(() => execHeader(common, { ...data(2n, PRAGUE_AT - 40n, 2), parentHash: bytes(20, 1) }, opts)).toThrow(
      /parentHash must be 32 bytes/,
    );
  });
});

describe('deriveHeader of a derived exec header', () => {
  it('equals the sealed header createBlockHeader makes, block after block', () => {
    const common = scheduledCommon();
    const opts = { common, setHardfork: true };
    for (let i = 1; i <= 4; i++) {
      const d = data(BigInt(i), PRAGUE_AT + BigInt(i), i);
      const sealed = {
        stateRoot: bytes(32, i + 10),
        transactionsTrie: bytes(32, i + 11),
        receiptTrie: bytes(32, i + 12),
        logsBloom: bytes(256, i),
        gasUsed: 21_000n * BigInt(i),
        blobGasUsed: 0n,
        requestsHash: bytes(32, i + 13),
        withdrawalsRoot: bytes(32, i + 14),
      };
      const final = deriveHeader(execHeader(common, d, opts), sealed);
      const expected = createBlockHeader({ ...d, ...sealed }, opts);
      expect(final.toJSON()).toEqual(expected.toJSON());
      expect(final.hash()).toEqual(expected.hash());
      expect(Object.keys(final)).toEqual(Object.keys(expected));
    }
  });
});
