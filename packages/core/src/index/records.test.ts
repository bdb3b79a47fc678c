// Records and keys written in place (one array each) against their layouts spelled out field by
// field with the fixed-width helpers: the index on disk must keep its bytes.
import { describe, expect, it } from 'vitest';
import { concat, u8, u32, u64, u256 } from './codec.js';
import { keys, txPos } from './indexKeys.js';
import {
  decodeAddress,
  decodeCoinBalance,
  decodeDaily,
  decodeGlobal,
  encodeAddress,
  encodeCoinBalance,
  encodeDaily,
  encodeGlobal,
} from './records.js';

const BIG = [0n, 1n, 255n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 64n - 1n];
const HUGE = [...BIG, 10n ** 30n, 2n ** 256n - 1n];
const addr = Uint8Array.from({ length: 20 }, (_, i) => 0xf0 - i);

describe('index records and keys', () => {
  it('encodes address records as u8, u256, u64 x3, u256, u64 x3', () => {
    for (const v of HUGE) {
      const small = BIG[HUGE.indexOf(v) % BIG.length];
      const rec = {
        hasBalance: v !== 0n,
        balance: v,
        balanceBlock: small,
        txCount: small,
        transferCount: 7n,
        gasUsed: v,
        validations: small,
        logCount: 3n,
        withdrawalCount: small,
      };
      const layout = concat(
        u8(rec.hasBalance ? 1 : 0),
        u256(v),
        u64(small),
        u64(small),
        u64(7n),
        u256(v),
        u64(small),
        u64(3n),
        u64(small),
      );
      expect(encodeAddress(rec)).toEqual(layout);
      expect(decodeAddress(encodeAddress(rec))).toEqual(rec);
    }
  });

  it('encodes coin balances, daily counters and totals in their layouts', () => {
    for (const [value, delta, txIndex] of [
      [10n ** 18n, -(10n ** 17n), 3],
      [0n, 5n, null],
      [2n ** 200n, 0n, 0xfffffffe],
    ] as const) {
      const rec = { block: 9n, value, delta, txIndex, first: delta === 0n };
      const neg = delta < 0n;
      expect(encodeCoinBalance(rec)).toEqual(
        concat(
          u256(value),
          u8((neg ? 1 : 0) | (rec.first ? 2 : 0)),
          u256(neg ? -delta : delta),
          u32(txIndex ?? 0xffffffff),
        ),
      );
      expect(decodeCoinBalance(9n, encodeCoinBalance(rec))).toEqual(rec);
    }
    for (const v of BIG) {
      expect(encodeDaily({ txCount: v, gasUsed: v * 3n })).toEqual(concat(u64(v), u256(v * 3n)));
      expect(decodeDaily(encodeDaily({ txCount: v, gasUsed: v * 3n }))).toEqual({ txCount: v, gasUsed: v * 3n });
      const g = {
        txCount: v,
        addressCount: 2n,
        tokenCount: v,
        transferCount: 4n,
        gasUsed: v * 5n,
        coinSupply: 10n ** 27n,
      };
      expect(encodeGlobal(g)).toEqual(concat(u64(v), u64(2n), u64(v), u64(4n), u256(v * 5n), u256(10n ** 27n)));
      expect(decodeGlobal(encodeGlobal(g))).toEqual(g);
    }
  });

  it('builds the per-block keys as their parts joined', () => {
    for (const n of BIG) {
      const pos = txPos(n, 7);
      expect(pos).toEqual(concat(u64(n), u32(7)));
      expect(keys.addrTx(addr, 1, pos)).toEqual(concat(addr, u8(1), pos));
      expect(keys.txKind(3, pos)).toEqual(concat(u8(3), pos));
      expect(keys.coinHistory(addr, n)).toEqual(concat(addr, u64(n)));
      expect(keys.validated(addr, n)).toEqual(concat(addr, u64(n)));
      expect(keys.txCountRank(n, addr)).toEqual(concat(u64(n), addr));
    }
    for (const v of HUGE) expect(keys.balanceRank(v, addr)).toEqual(concat(u256(v), addr));
    // A position is a view of nothing else: a subarray addresses only its own bytes.
    const wide = new Uint8Array(64).fill(0xaa);
    wide.set(addr, 22);
    expect(keys.coinHistory(wide.subarray(22, 42), 5n)).toEqual(concat(addr, u64(5n)));
  });
});
