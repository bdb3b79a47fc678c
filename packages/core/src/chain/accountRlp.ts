import type { Account } from '@ethereumjs/util';

/**
 * An account's RLP, as `Account.serialize()` writes it, in one allocation: the list of nonce and
 * balance (unpadded big-endian), storage root and code hash (32 bytes each). serialize() goes
 * through `raw()`, two bigint-to-hex-to-bytes conversions and the generic RLP encoder (~3 µs);
 * a flush writes every account a block touched. Anything outside the usual shape (a nonce or
 * balance over 32 bytes, a root or hash not 32 bytes) is left to serialize().
 */
export function encodeAccount(account: Account): Uint8Array {
  const nonce = unpaddedHex(account.nonce);
  const balance = unpaddedHex(account.balance);
  const root = account.storageRoot;
  const codeHash = account.codeHash;
  if (nonce.length > 64 || balance.length > 64 || root.length !== 32 || codeHash.length !== 32) {
    return account.serialize();
  }
  const payload = itemLength(nonce) + itemLength(balance) + 66;
  // The payload is 68 to 132 bytes: a list header of 0xf8 and one length byte.
  const out = new Uint8Array(2 + payload);
  out[0] = 0xf8;
  out[1] = payload;
  let at = writeItem(out, 2, nonce);
  at = writeItem(out, at, balance);
  out[at] = 0xa0;
  out.set(root, at + 1);
  out[at + 33] = 0xa0;
  out.set(codeHash, at + 34);
  return out;
}

/** Even-length hex of a non-negative bigint, '' for zero (its unpadded bytes). */
function unpaddedHex(v: bigint): string {
  if (v === 0n) return '';
  const hex = v.toString(16);
  return hex.length % 2 === 1 ? `0${hex}` : hex;
}

/** Length of the RLP item of the bytes whose hex is `hex` (at most 32 bytes). */
function itemLength(hex: string): number {
  const n = hex.length / 2;
  return n === 1 && Number.parseInt(hex, 16) < 0x80 ? 1 : 1 + n;
}

/** Writes the RLP item of the bytes whose hex is `hex` at `at`; returns where the next one goes. */
function writeItem(out: Uint8Array, at: number, hex: string): number {
  const n = hex.length / 2;
  if (n === 1) {
    const byte = Number.parseInt(hex, 16);
    if (byte < 0x80) {
      out[at] = byte;
      return at + 1;
    }
  }
  out[at] = 0x80 + n;
  // Two lowercase hex digits per byte (toString(16) writes no other), read by char code.
  for (let i = 0; i < n; i++) out[at + 1 + i] = (digit(hex.charCodeAt(2 * i)) << 4) | digit(hex.charCodeAt(2 * i + 1));
  return at + 1 + n;
}

/** The value of a lowercase hex digit's char code (0-9: 48-57, a-f: 97-102). */
function digit(c: number): number {
  return c <= 57 ? c - 48 : c - 87;
}
