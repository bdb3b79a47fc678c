/**
 * Splits concatenated RLP items (a `geth export` file: one RLP-encoded block after another, no
 * separators) into the bytes of each item, without decoding them: the importer decodes one block
 * at a time and stores the bytes as read, so an export writes them back unchanged.
 */
export function* splitRlpItems(bytes: Uint8Array): Generator<{ offset: number; item: Uint8Array }> {
  let offset = 0;
  while (offset < bytes.length) {
    const length = rlpItemLength(bytes, offset);
    yield { offset, item: bytes.subarray(offset, offset + length) };
    offset += length;
  }
}

/** Total length (prefix + payload) of the RLP item starting at `offset`; throws on truncation. */
export function rlpItemLength(bytes: Uint8Array, offset: number): number {
  const first = bytes[offset];
  let length: number;
  if (first < 0x80) length = 1;
  else if (first <= 0xb7) length = 1 + first - 0x80;
  else if (first < 0xc0) length = 1 + (first - 0xb7) + readLength(bytes, offset + 1, first - 0xb7);
  else if (first <= 0xf7) length = 1 + first - 0xc0;
  else length = 1 + (first - 0xf7) + readLength(bytes, offset + 1, first - 0xf7);
  if (offset + length > bytes.length) {
    throw new RangeError(`truncated RLP item at byte ${offset}: needs ${length} bytes, ${bytes.length - offset} left`);
  }
  return length;
}

function readLength(bytes: Uint8Array, at: number, size: number): number {
  if (at + size > bytes.length) throw new RangeError(`truncated RLP length at byte ${at}`);
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + bytes[at + i];
  return n;
}
