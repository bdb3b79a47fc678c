/** Bytes → nibbles (two per byte, high first). */
export function toNibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i] >> 4;
    out[2 * i + 1] = key[i] & 0x0f;
  }
  return out;
}

/** Decodes a hex-prefix path (Yellow Paper appendix C): the nibbles and whether it ends in a leaf. */
export function fromHexPrefix(b: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const flag = b[0] >> 4;
  const odd = flag & 1;
  const out = new Uint8Array((b.length - 1) * 2 + odd);
  let o = 0;
  if (odd) out[o++] = b[0] & 0x0f;
  for (let i = 1; i < b.length; i++) {
    out[o++] = b[i] >> 4;
    out[o++] = b[i] & 0x0f;
  }
  return { path: out, leaf: (flag & 2) === 2 };
}

export function commonPrefix(a: Uint8Array, aOff: number, b: Uint8Array): number {
  let i = 0;
  while (i < b.length && aOff + i < a.length && a[aOff + i] === b[i]) i++;
  return i;
}

export function concatNibbles(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
