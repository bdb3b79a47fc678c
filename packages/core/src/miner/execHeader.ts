import { type BlockHeader, type HeaderData, createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Address } from '@ethereumjs/util';

/** The header fields assembleBlock sets per block; every other field keeps its default. */
const BYTES32 = new Set(['parentHash', 'mixHash', 'parentBeaconBlockRoot']);
const BIGINTS = new Set(['number', 'timestamp', 'gasLimit', 'baseFeePerGas', 'excessBlobGas']);

/**
 * Per chain Common: a header the constructor made for a block whose transactions run (gas used
 * 0, default roots), post-merge. Only constructor-made headers are kept, never derived ones.
 */
const templates = new WeakMap<Common, BlockHeader>();

/**
 * The header a block's transactions run under: createBlockHeader({ ...headerData, gasUsed: 0 })
 * with `opts` (setHardfork), or, when a header made that way for the same hardfork is at hand,
 * that header with the fields `headerData` sets replaced. What the constructor would add is the
 * same for every such block of one hardfork (the defaults, the Common copy at that hardfork)
 * and its validation is repeated here for the fields that vary: a constructor run (a Common
 * copy, a hardfork lookup, every field converted) was ~50 µs of each automined block.
 * Pre-merge blocks (difficulty from the parent), the London transition block (its base fee is
 * checked) and any field this does not know take the constructor.
 */
export function execHeader(
  common: Common,
  headerData: HeaderData,
  opts: Parameters<typeof createBlockHeader>[1],
): BlockHeader {
  const template = templates.get(common);
  if (template && derivable(template, headerData)) {
    const header = Object.create(Object.getPrototypeOf(template)) as BlockHeader;
    Object.assign(header, template);
    const h = header as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(headerData)) if (value !== undefined) h[key] = value;
    h.gasUsed = 0n;
    h.cache = { hash: undefined };
    Object.freeze(header);
    return header;
  }
  const header = createBlockHeader({ ...headerData, gasUsed: 0n }, opts);
  if (header.common.gteHardfork('paris')) templates.set(common, header);
  return header;
}

function derivable(template: BlockHeader, headerData: HeaderData): boolean {
  const number = headerData.number;
  const timestamp = headerData.timestamp;
  if (typeof number !== 'bigint' || typeof timestamp !== 'bigint') return false;
  for (const [key, value] of Object.entries(headerData)) {
    if (value === undefined) continue;
    if (BYTES32.has(key)) {
      if (!(value instanceof Uint8Array) || value.length !== 32) return false;
    } else if (BIGINTS.has(key)) {
      if (typeof value !== 'bigint') return false;
    } else if (key === 'coinbase') {
      if (!(value instanceof Address)) return false;
    } else return false;
  }
  const tc = template.common;
  if (tc.getHardforkBy({ blockNumber: number, timestamp }) !== tc.hardfork()) return false;
  // The constructor checks the first London block's base fee; the rest are the same per hardfork.
  if (tc.isActivatedEIP(1559)) {
    if (typeof headerData.baseFeePerGas !== 'bigint') return false;
    const london = tc.hardforkBlock('london');
    if (london !== null && london !== 0n && number === london) return false;
  }
  return true;
}
