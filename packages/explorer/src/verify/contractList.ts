import type { IndexService } from '@ashlar/core';

const PAGE = 1000;

/**
 * Every contract the index knows (created by a transaction or in the genesis), as 20-byte
 * addresses, read a page at a time: LevelDB iterators size their buffers by the limit asked.
 */
export async function allContracts(index: IndexService): Promise<Uint8Array[]> {
  // Read the store directly (by pages): first bring the index to the head, as its queries do.
  await index.sync();
  const out: Uint8Array[] = [];
  let after: Uint8Array | undefined;
  for (;;) {
    const page = await index.store.range('idxContract', {
      prefix: new Uint8Array(0),
      after,
      reverse: false,
      limit: PAGE,
    });
    for (const e of page) out.push(e.key);
    if (page.length < PAGE) return out;
    after = page[page.length - 1].key;
  }
}
