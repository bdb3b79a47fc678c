// Key layouts of the explorer index (sublevel names in storage/keys.ts). Every list ends in a
// fixed-width position — (u64 block, u32 index) for transactions, (u64 block, u32 log, u16 sub)
// for logs and transfers — so newest-first is a reverse scan below the last item's position.
import { concat, putBytes, putU32, putU64, putU256, u8, u16, u32, u64, u256, utf8 } from './codec.js';

/** Position of a transaction: u64 block, u32 index (12 bytes). */
export function txPos(block: bigint, index: number): Uint8Array {
  const b = new Uint8Array(12);
  putU64(b, 0, block);
  putU32(b, 8, index);
  return b;
}

// The keys written for every block (a transaction's lists, the coin history, the rankings) are
// built in one array each, in place; the others concat their parts (same bytes either way).

/** `a` (an address or a byte), `role` when not null, then `b` — one array. */
function joined(a: Uint8Array, role: number | null, b: Uint8Array): Uint8Array {
  const at = a.length + (role === null ? 0 : 1);
  const out = new Uint8Array(at + b.length);
  putBytes(out, 0, a);
  if (role !== null) out[a.length] = role;
  putBytes(out, at, b);
  return out;
}

/** `a` then u64 `n`. */
function withU64(a: Uint8Array, n: bigint): Uint8Array {
  const out = new Uint8Array(a.length + 8);
  putBytes(out, 0, a);
  putU64(out, a.length, n);
  return out;
}

/** Position of a token transfer: u64 block, u32 log index, u16 position in an ERC-1155 batch (14 bytes). */
export const transferPos = (block: bigint, logIndex: number, sub: number): Uint8Array =>
  concat(u64(block), u32(logIndex), u16(sub));

/** Position of an internal transaction: u64 block, u32 tx index, u32 frame index (16 bytes). */
export const internalPos = (block: bigint, txIndex: number, index: number): Uint8Array =>
  concat(u64(block), u32(txIndex), u32(index));

/** Position of a log: u64 block, u32 log index (12 bytes). */
export const logPos = (block: bigint, logIndex: number): Uint8Array => concat(u64(block), u32(logIndex));

const EMPTY = new Uint8Array(0);

export const ROLE_FROM = 0;
/** Receiver, or the contract a creation made. */
export const ROLE_TO = 1;

export const META_KEYS = {
  head: utf8('head'),
  version: utf8('version'),
  global: utf8('global'),
} as const;

/** Bumped when a layout changes: an index of another version is rebuilt on start. */
export const INDEX_VERSION = 4;

export const keys = {
  addrTx: (addr: Uint8Array, role: number, pos: Uint8Array) => joined(addr, role, pos),
  addrTxPrefix: (addr: Uint8Array, role: number) => concat(addr, u8(role)),
  addrInternal: (addr: Uint8Array, role: number, pos: Uint8Array) => concat(addr, u8(role), pos),
  txKind: (kind: number, pos: Uint8Array) => joined(EMPTY, kind, pos),
  txMethod: (selector: Uint8Array, pos: Uint8Array) => concat(selector, pos),
  addrTransfer: (addr: Uint8Array, type: number, role: number, pos: Uint8Array) =>
    concat(addr, u8(type), u8(role), pos),
  addrTransferPrefix: (addr: Uint8Array, type: number, role: number) => concat(addr, u8(type), u8(role)),
  tokenTransfer: (token: Uint8Array, pos: Uint8Array) => concat(token, pos),
  addrTokenTransfer: (addr: Uint8Array, token: Uint8Array, role: number, pos: Uint8Array) =>
    concat(addr, token, u8(role), pos),
  addrTokenTransferPrefix: (addr: Uint8Array, token: Uint8Array, role: number) => concat(addr, token, u8(role)),
  tokenRank: (type: number, holders: bigint, token: Uint8Array) => concat(u8(type), u64(holders), token),
  tokenName: (text: string, token: Uint8Array) => concat(utf8(text.toLowerCase()), u8(0), token),
  /** ERC-20 and ERC-721 balances have no id part; ERC-1155 balances are per id. */
  tokenBalance: (holder: Uint8Array, token: Uint8Array, id: bigint | null) =>
    id === null ? concat(holder, token) : concat(holder, token, u256(id)),
  holderRank: (token: Uint8Array, balance: bigint, holder: Uint8Array, id: bigint | null) =>
    id === null ? concat(token, u256(balance), holder) : concat(token, u256(balance), holder, u256(id)),
  /** ERC-1155 only: how many of the token's ids the holder holds. */
  holderIds: (holder: Uint8Array, token: Uint8Array) => concat(holder, token),
  addrLog: (addr: Uint8Array, pos: Uint8Array) => concat(addr, pos),
  balanceRank: (balance: bigint, addr: Uint8Array) => {
    const out = new Uint8Array(32 + addr.length);
    putU256(out, 0, balance);
    putBytes(out, 32, addr);
    return out;
  },
  txCountRank: (count: bigint, addr: Uint8Array) => {
    const out = new Uint8Array(8 + addr.length);
    putU64(out, 0, count);
    putBytes(out, 8, addr);
    return out;
  },
  coinHistory: (addr: Uint8Array, block: bigint) => withU64(addr, block),
  validated: (miner: Uint8Array, block: bigint) => withU64(miner, block),
  /** Withdrawal index, then block: a chain that repeats an index (a dev method can) keeps both. */
  withdrawal: (index: bigint, block: bigint) => concat(u64(index), u64(block)),
  daily: (day: number) => u32(day),
} as const;

/** Days since 1970-01-01 (UTC) of a block timestamp. */
export const dayOf = (timestamp: bigint): number => Number(timestamp / 86_400n);
