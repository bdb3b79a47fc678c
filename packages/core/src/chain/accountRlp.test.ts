import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { encodeAccount } from './accountRlp.js';

const bytes32 = (fill: number) => new Uint8Array(32).fill(fill);

describe('encodeAccount', () => {
  it("writes the same bytes as @ethereumjs's Account.serialize", () => {
    const values = [
      ...[0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 10n ** 18n, 10n ** 21n + 12345n, 2n ** 255n, 2n ** 256n - 1n],
      // every hex digit in every position of a byte
      0x0123456789abcdeffedcba9876543210n,
      0x1032547698badcfeefcdab8967452301n,
    ];
    for (const nonce of values) {
      for (const balance of values) {
        for (const [root, codeHash] of [
          [KECCAK256_RLP, KECCAK256_NULL],
          [bytes32(0x11), bytes32(0xee)],
        ]) {
          const account = new Account(nonce, balance, root, codeHash);
          expect(bytesToHex(encodeAccount(account)), `${nonce} ${balance}`).toBe(bytesToHex(account.serialize()));
        }
      }
    }
  });

  it('leaves a balance over 32 bytes to Account.serialize', () => {
    const account = new Account(1n, 2n ** 300n);
    expect(bytesToHex(encodeAccount(account))).toBe(bytesToHex(account.serialize()));
  });
});
