import type { BlockHeader } from '@ethereumjs/block';
import { HeaderOf, cloneHeader, hasKnownShape } from './cloneHeader.js';

/** The header fields a block's execution fills in once its transactions have run. */
export interface SealedFields {
  stateRoot: Uint8Array;
  transactionsTrie: Uint8Array;
  receiptTrie: Uint8Array;
  logsBloom: Uint8Array;
  gasUsed: bigint;
  withdrawalsRoot?: Uint8Array;
  blobGasUsed?: bigint;
  requestsHash?: Uint8Array;
}

/**
 * The header of a block whose transactions ran under `base` (the same header data with gas used
 * 0 and empty roots): `base` with the execution's fields, and no cached hash. It equals what
 * createBlockHeader makes from the same data — a field left undefined keeps `base`'s value, which
 * is the default createBlockHeader would give it — without a second run of the constructor (a
 * Common copy, a hardfork lookup, every field converted and validated again: a few percent of an
 * automined transaction). Frozen like a constructed header; its hash is computed on first use.
 */
export function deriveHeader(base: BlockHeader, fields: SealedFields): BlockHeader {
  if (!hasKnownShape(base)) return cloneHeader(base, fields as unknown as Record<string, unknown>);
  return sealedCopy(base as unknown as Fields, fields);
}

type Fields = Record<string, unknown>;

/**
 * cloneHeader(base, fields) for a base of the known shape, written out for the sealed fields: only
 * they can change, and this site sees one shape of `fields` (SealedFields, made in one literal)
 * and of `base` (a header cloneHeader/execHeader made). Through the shared cloneHeader, every
 * other caller's change object (eth_call's header, execHeader's data) reached the same reads: a
 * fresh node's first calls of another kind threw its optimised code away ("wrong map"), and each
 * of its 26 reads of `changes` was polymorphic.
 */
function sealedCopy(b: Fields, f: SealedFields): BlockHeader {
  const h = new HeaderOf(
    b.common,
    b.keccakFunction,
    b.parentHash,
    b.uncleHash,
    b.coinbase,
    f.stateRoot ?? b.stateRoot,
    f.transactionsTrie ?? b.transactionsTrie,
    f.receiptTrie ?? b.receiptTrie,
    f.logsBloom ?? b.logsBloom,
    b.difficulty,
    b.number,
    b.gasLimit,
    f.gasUsed ?? b.gasUsed,
    b.timestamp,
    b.extraData,
    b.mixHash,
    b.nonce,
    b.baseFeePerGas,
    f.withdrawalsRoot ?? b.withdrawalsRoot,
    f.blobGasUsed ?? b.blobGasUsed,
    b.excessBlobGas,
    b.parentBeaconBlockRoot,
    f.requestsHash ?? b.requestsHash,
    b.blockAccessListHash,
    b.slotNumber,
  );
  return Object.freeze(h) as unknown as BlockHeader;
}
