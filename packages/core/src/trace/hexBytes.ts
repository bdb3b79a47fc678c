import { hexToBytes } from '@ethereumjs/util';

/** The value of a hex digit's char code, or -1. */
function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * The bytes of a 0x-prefixed hex string such as a call frame's addresses, decoded in one loop:
 * @ethereumjs/util's hexToBytes first tests the whole string against a regular expression and
 * strips and copies it (~1 µs an address; two per frame stored and indexed). Anything but even
 * 0x-hex goes to hexToBytes, which throws the error it always threw.
 */
export function hexBytes(hex: string): Uint8Array {
  const n = hex.length;
  if (n % 2 !== 0 || hex.charCodeAt(0) !== 48 || hex.charCodeAt(1) !== 120) return hexToBytes(hex as `0x${string}`);
  const out = new Uint8Array((n - 2) / 2);
  for (let i = 2, j = 0; i < n; i += 2, j++) {
    const hi = nibble(hex.charCodeAt(i));
    const lo = nibble(hex.charCodeAt(i + 1));
    if (hi < 0 || lo < 0) return hexToBytes(hex as `0x${string}`);
    out[j] = hi * 16 + lo;
  }
  return out;
}
