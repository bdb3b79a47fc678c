import type { ChainService } from '../chain/ChainService.js';

/**
 * The RLP of blocks `from`..`to` (default: 1..head, as `geth export` leaves out the genesis),
 * oldest first. Each block is yielded as stored — for imported blocks the bytes that were read —
 * so writing them one after another gives back the imported file byte for byte.
 */
export async function* exportBlocks(
  source: { readonly chain: ChainService },
  from = 1n,
  to?: bigint,
): AsyncGenerator<Uint8Array> {
  const chain = source.chain;
  const last = to === undefined || to > chain.head.number ? chain.head.number : to;
  for (let n = from; n <= last; n++) {
    const sb = await chain.getBlock(n);
    if (!sb) throw new Error(`block ${n} is not stored`);
    yield sb.rlp ?? sb.block.serialize();
  }
}
