import { createBlockHeader } from '@ethereumjs/block';
import { Address, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createDevCommon } from '../chain/chainCommon.js';
import { RLP } from '@ethereumjs/rlp';
import { headerRaw, headerRlp } from './headerRaw.js';

const hex = (items: Uint8Array[]) => items.map((b) => bytesToHex(b));

describe('headerRaw', () => {
  for (const hardfork of ['london', 'shanghai', 'cancun', 'prague', 'osaka', 'bpo2']) {
    it(`equals BlockHeader.raw() on ${hardfork}, for zero, small, 2^53-adjacent and large numbers`, () => {
      const common = createDevCommon(31337n, hardfork);
      const values = [0n, 1n, 255n, 256n, 70_000n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n + 3n];
      for (const v of values) {
        const header = createBlockHeader(
          {
            parentHash: new Uint8Array(32).fill(1),
            coinbase: new Address(new Uint8Array(20).fill(2)),
            number: v,
            gasLimit: 30_000_000n + v,
            gasUsed: v,
            timestamp: v,
            difficulty: v % 3n === 0n ? 0n : v,
            extraData: v === 1n ? Uint8Array.of(0x7f) : v === 255n ? new Uint8Array(60).fill(9) : new Uint8Array(0),
            baseFeePerGas: v + 7n,
            ...(common.isActivatedEIP(4844) ? { blobGasUsed: v, excessBlobGas: v } : {}),
            ...(common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: new Uint8Array(32).fill(3) } : {}),
          },
          { common, skipConsensusFormatValidation: true },
        );
        expect(hex(headerRaw(header))).toEqual(hex(header.raw()));
        expect(bytesToHex(headerRlp(header))).toBe(bytesToHex(RLP.encode(header.raw())));
      }
    });
  }
});
