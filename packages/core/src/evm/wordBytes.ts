// A 256-bit word written as bytes without the hex-string and byte-array steps of @ethereumjs/util.

/** Writes `word` (0 ≤ word < 2^256) big-endian into `store[at..at+32)`. */
export function writeWord(store: Uint8Array, at: number, word: bigint): void {
  if (word === 0n) {
    store.fill(0, at, at + 32);
    return;
  }
  const hex = word.toString(16);
  let i = hex.length;
  let pos = at + 31;
  while (i >= 2) {
    store[pos--] = (HEX_VALUE[hex.charCodeAt(i - 2)] << 4) | HEX_VALUE[hex.charCodeAt(i - 1)];
    i -= 2;
  }
  if (i === 1) store[pos--] = HEX_VALUE[hex.charCodeAt(0)];
  while (pos >= at) store[pos--] = 0;
}

/** Value of each lowercase hex digit by char code. */
const HEX_VALUE = (() => {
  const t = new Uint8Array(128);
  for (let d = 0; d < 10; d++) t[48 + d] = d;
  for (let d = 0; d < 6; d++) t[97 + d] = 10 + d;
  return t;
})();
