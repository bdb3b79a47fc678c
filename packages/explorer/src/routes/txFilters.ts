import type { TxKind } from '@ashlar/core';
import { parseEnumList } from '../http/params.js';

/** Values of the `type` filter on transaction lists (Blockscout's transaction types). */
export const TX_TYPE_FILTERS: readonly TxKind[] = [
  'token_transfer',
  'contract_creation',
  'contract_call',
  'coin_transfer',
  'token_creation',
];

/** The kinds a `type` parameter asks for (comma-separated), or undefined for all. */
export function parseTxTypes(raw: string | null): TxKind[] | undefined {
  return parseEnumList(raw, 'type', TX_TYPE_FILTERS);
}
