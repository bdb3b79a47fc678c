import { TOKEN_TYPES, type TokenType } from '@ashlar/core';
import { parseEnumList } from './params.js';

/**
 * Every token type Blockscout 10 accepts in a `type` parameter. Its web frontend asks an address
 * page for each of them; the ones this chain does not index (ERC-404, ERC-7984) match nothing.
 */
export const BLOCKSCOUT_TOKEN_TYPES = ['ERC-20', 'ERC-721', 'ERC-1155', 'ERC-404', 'ERC-7984'] as const;

/**
 * A token `type` list (`ERC-20,ERC-721`, optionally in brackets): undefined when absent, else
 * the indexed types it names, possibly none (an empty answer, not a 422, as Blockscout gives for a
 * type nobody deployed). A name Blockscout does not know is a 422.
 */
export function parseTokenTypes(raw: string | null): TokenType[] | undefined {
  const list = parseEnumList(raw, 'type', BLOCKSCOUT_TOKEN_TYPES);
  return list?.filter((t): t is TokenType => (TOKEN_TYPES as readonly string[]).includes(t));
}
