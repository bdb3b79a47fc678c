import { hexToBytes } from '@ethereumjs/util';
import { concat, readU256 } from './codec.js';
import type { TokenType } from './records.js';
import type { StateReader } from './StateReader.js';

const SELECTORS = {
  supportsInterface: hexToBytes('0x01ffc9a7'),
  name: hexToBytes('0x06fdde03'),
  symbol: hexToBytes('0x95d89b41'),
  decimals: hexToBytes('0x313ce567'),
  totalSupply: hexToBytes('0x18160ddd'),
} as const;

/** ERC-165 interface ids. */
const INTERFACES = {
  erc721: hexToBytes('0x80ac58cd'),
  erc1155: hexToBytes('0xd9b67a26'),
} as const;

export interface TokenMetadata {
  type: TokenType;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  totalSupply: bigint | null;
}

const MAX_TEXT = 256;

/** An ABI `string` return, or a `bytes32` one (older tokens), or null. */
export function decodeTextReturn(ret: Uint8Array | undefined): string | null {
  if (!ret || ret.length < 32) return null;
  if (ret.length === 32) {
    const end = ret.indexOf(0);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(ret.subarray(0, end < 0 ? 32 : end));
    return text.length > 0 ? text : null;
  }
  const offset = readU256(ret, 0);
  if (offset + 32n > BigInt(ret.length)) return null;
  const len = readU256(ret, Number(offset));
  const start = Number(offset) + 32;
  if (BigInt(start) + len > BigInt(ret.length)) return null;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(ret.subarray(start, start + Number(len)));
  // Strip NULs and control characters a hostile token could use to garble listings.
  const clean = Array.from(text)
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .slice(0, MAX_TEXT);
  return clean.length > 0 ? clean : null;
}

function decodeUint(ret: Uint8Array | undefined): bigint | null {
  return ret && ret.length >= 32 ? readU256(ret, 0) : null;
}

async function supports(reader: StateReader, token: Uint8Array, id: Uint8Array): Promise<boolean> {
  const arg = new Uint8Array(32);
  arg.set(id, 0);
  const ret = await reader.call(token, concat(SELECTORS.supportsInterface, arg));
  return ret !== undefined && ret.length >= 32 && readU256(ret, 0) === 1n;
}

/**
 * Reads a new token's metadata once, through the EVM at the block where the index met it.
 * The type comes from ERC-165 (ERC-721, ERC-1155) when the contract answers it, else from the
 * event that revealed the token (`shape`): an ERC-20 need not implement ERC-165, and an old
 * ERC-721 may not either.
 */
export async function readTokenMetadata(
  reader: StateReader,
  token: Uint8Array,
  shape: TokenType,
): Promise<TokenMetadata> {
  let type: TokenType = shape;
  if (await supports(reader, token, INTERFACES.erc1155)) type = 'ERC-1155';
  else if (await supports(reader, token, INTERFACES.erc721)) type = 'ERC-721';
  // One after another: the calls share one VM and its journal.
  const name = await reader.call(token, SELECTORS.name);
  const symbol = await reader.call(token, SELECTORS.symbol);
  const decimals = type === 'ERC-20' ? await reader.call(token, SELECTORS.decimals) : undefined;
  const totalSupply = type === 'ERC-1155' ? undefined : await reader.call(token, SELECTORS.totalSupply);
  const dec = decodeUint(decimals);
  return {
    type,
    name: decodeTextReturn(name),
    symbol: decodeTextReturn(symbol),
    decimals: dec !== null && dec <= 255n ? Number(dec) : null,
    totalSupply: decodeUint(totalSupply),
  };
}
