// Parameter widths of Erigon's ots_ methods (its Go signatures): Otterscan sends these as JSON
// numbers; hex and decimal strings are read too (docs/param-shapes.md).
import { looseCount, looseInteger } from '../params/index.js';

/** A uint64 (ots_searchTransactions* block number, ots_getTransactionBySenderAndNonce nonce). */
export const otsUint64 = (name: string) => looseInteger(name, 64);

/** A uint8 (ots_getBlockTransactions page number and size). */
export const otsUint8 = (name: string) => looseCount(name, 8);

/** A uint16 (ots_searchTransactions* page size). */
export const otsUint16 = (name: string) => looseCount(name, 16);
