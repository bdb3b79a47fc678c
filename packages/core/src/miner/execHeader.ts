import { type BlockHeader, type HeaderData, createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Address } from '@ethereumjs/util';
import { HeaderOf, cloneHeader, hasKnownShape } from './cloneHeader.js';

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
  // The template's gas used is 0 and headerData sets none (derivable): no copy of it with gasUsed 0.
  if (template && derivable(template, headerData))
    return hasKnownShape(template)
      ? dataCopy(template as unknown as Fields, headerData as Fields)
      : cloneHeader(template, headerData as Fields);
  const header = createBlockHeader({ ...headerData, gasUsed: 0n }, opts);
  if (header.common.gteHardfork('paris')) templates.set(common, header);
  return header;
}

type Fields = Record<string, unknown>;

/**
 * cloneHeader(template, d) written out for the fields `derivable` lets through (the only ones
 * `d` can set): this site sees one shape of `d` (assembleBlock's header data) and of the
 * template (constructor-made), where the shared cloneHeader also met eth_call's and
 * deriveHeader's (see deriveHeader's sealedCopy).
 */
function dataCopy(b: Fields, d: Fields): BlockHeader {
  const h = new HeaderOf(
    b.common,
    b.keccakFunction,
    d.parentHash ?? b.parentHash,
    b.uncleHash,
    d.coinbase ?? b.coinbase,
    b.stateRoot,
    b.transactionsTrie,
    b.receiptTrie,
    b.logsBloom,
    b.difficulty,
    d.number ?? b.number,
    d.gasLimit ?? b.gasLimit,
    b.gasUsed,
    d.timestamp ?? b.timestamp,
    b.extraData,
    d.mixHash ?? b.mixHash,
    b.nonce,
    d.baseFeePerGas ?? b.baseFeePerGas,
    b.withdrawalsRoot,
    b.blobGasUsed,
    d.excessBlobGas ?? b.excessBlobGas,
    d.parentBeaconBlockRoot ?? b.parentBeaconBlockRoot,
    b.requestsHash,
    b.blockAccessListHash,
    b.slotNumber,
  );
  return Object.freeze(h) as unknown as BlockHeader;
}

function derivable(template: BlockHeader, headerData: HeaderData): boolean {
  const number = headerData.number;
  const timestamp = headerData.timestamp;
  if (typeof number !== 'bigint' || typeof timestamp !== 'bigint') return false;
  const fields = headerData as Record<string, unknown>;
  // for-in and a switch: Object.entries and two Set lookups per field cost ~2 µs a block.
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue;
    switch (key) {
      case 'parentHash':
      case 'mixHash':
      case 'parentBeaconBlockRoot':
        if (!(value instanceof Uint8Array) || value.length !== 32) return false;
        break;
      case 'number':
      case 'timestamp':
      case 'gasLimit':
      case 'baseFeePerGas':
      case 'excessBlobGas':
        if (typeof value !== 'bigint') return false;
        break;
      case 'coinbase':
        if (!(value instanceof Address)) return false;
        break;
      default:
        return false;
    }
  }
  const tc = template.common;
  if (!hardforkIsFixed(tc) && tc.getHardforkBy({ blockNumber: number, timestamp }) !== tc.hardfork()) return false;
  // The constructor checks the first London block's base fee; the rest are the same per hardfork.
  if (tc.isActivatedEIP(1559)) {
    if (typeof headerData.baseFeePerGas !== 'bigint') return false;
    const london = tc.hardforkBlock('london');
    if (london !== null && london !== 0n && number === london) return false;
  }
  return true;
}

const fixedHardfork = new WeakMap<Common, boolean>();

/**
 * True when every hardfork the chain schedules starts at block 0 / time 0 (a dev chain's usual
 * schedule): every block then has the same hardfork, and the per-block lookup (~1.5 µs) is spared.
 */
function hardforkIsFixed(common: Common): boolean {
  let fixed = fixedHardfork.get(common);
  if (fixed === undefined) {
    fixed = common
      .hardforks()
      .every(
        (hf) =>
          (hf.block === null || BigInt(hf.block) === 0n) &&
          (hf.timestamp === null || hf.timestamp === undefined || BigInt(hf.timestamp) === 0n),
      );
    fixedHardfork.set(common, fixed);
  }
  return fixed;
}
