// Values stored in the index sublevels: fixed layouts, decoded on read. Types are the public
// shapes the explorer reads (exported from @ashlar/core).
import {
  concat,
  decodeText,
  encodeText,
  putU32,
  putU64,
  putU256,
  readU16,
  readU32,
  readU64,
  readU256,
  u8,
  u16,
  u32,
  u64,
  u256,
} from './codec.js';
import { keepPrimed } from './keepPrimed.js';

/** What a token contract is, as Blockscout names it. */
export type TokenType = 'ERC-20' | 'ERC-721' | 'ERC-1155';
export const TOKEN_TYPES: readonly TokenType[] = ['ERC-20', 'ERC-721', 'ERC-1155'];
export const tokenTypeByte = (t: TokenType): number => TOKEN_TYPES.indexOf(t);
export const tokenTypeOf = (b: number): TokenType => TOKEN_TYPES[b] ?? 'ERC-20';

/** Transaction kinds (bit positions in the per-tx kinds byte), as Blockscout's `transaction_types`. */
export const TX_KINDS = [
  'coin_transfer',
  'contract_call',
  'contract_creation',
  'token_transfer',
  'token_creation',
] as const;
export type TxKind = (typeof TX_KINDS)[number];
export const txKindBit = (k: TxKind): number => 1 << TX_KINDS.indexOf(k);
/** Bit of the per-tx kinds byte (beside the kinds) set when a call frame below the top one failed. */
export const INTERNAL_ERROR_BIT = 0x80;

export function txKindsOf(mask: number): TxKind[] {
  return TX_KINDS.filter((_, i) => (mask & (1 << i)) !== 0);
}

/** Per-address totals: coin balance (as of the last block that touched it) and counters. */
export interface AddressRecord {
  /** False until the index has read the address's balance once. */
  hasBalance: boolean;
  balance: bigint;
  balanceBlock: bigint;
  txCount: bigint;
  transferCount: bigint;
  gasUsed: bigint;
  validations: bigint;
  logCount: bigint;
  withdrawalCount: bigint;
}

export const emptyAddress = (): AddressRecord => ({
  hasBalance: false,
  balance: 0n,
  balanceBlock: 0n,
  txCount: 0n,
  transferCount: 0n,
  gasUsed: 0n,
  validations: 0n,
  logCount: 0n,
  withdrawalCount: 0n,
});

export function isEmptyAddress(a: AddressRecord): boolean {
  return (
    !a.hasBalance &&
    a.txCount === 0n &&
    a.transferCount === 0n &&
    a.gasUsed === 0n &&
    a.validations === 0n &&
    a.logCount === 0n &&
    a.withdrawalCount === 0n
  );
}

/** u8 hasBalance, u256 balance, u64 balanceBlock, txCount, transferCount, u256 gasUsed, u64 validations, logCount, withdrawalCount. */
export function encodeAddress(a: AddressRecord): Uint8Array {
  const b = new Uint8Array(113);
  b[0] = a.hasBalance ? 1 : 0;
  putU256(b, 1, a.balance);
  putU64(b, 33, a.balanceBlock);
  putU64(b, 41, a.txCount);
  putU64(b, 49, a.transferCount);
  putU256(b, 57, a.gasUsed);
  putU64(b, 89, a.validations);
  putU64(b, 97, a.logCount);
  putU64(b, 105, a.withdrawalCount);
  return b;
}

export function decodeAddress(b: Uint8Array): AddressRecord {
  return {
    hasBalance: b[0] === 1,
    balance: readU256(b, 1),
    balanceBlock: readU64(b, 33),
    txCount: readU64(b, 41),
    transferCount: readU64(b, 49),
    gasUsed: readU256(b, 57),
    validations: readU64(b, 89),
    logCount: readU64(b, 97),
    withdrawalCount: readU64(b, 105),
  };
}

// Value transfers change an address's balance, transaction count, gas and validations, but
// never its transfer, log or withdrawal counts: on a fresh node the first token transfer was their
// first change, and V8 threw away the scope's address() and encodeAddress, optimised on them being
// written once. Changing every field on throwaway records (both literals share one hidden class)
// at load makes them mutable from the start.
for (const a of [keepPrimed(emptyAddress()), keepPrimed(decodeAddress(new Uint8Array(113)))]) {
  a.hasBalance = true;
  a.balance = a.balanceBlock = a.txCount = a.transferCount = a.gasUsed = 1n;
  a.validations = a.logCount = a.withdrawalCount = 1n;
}

export interface TokenRecord {
  type: TokenType;
  /** Order in which the index met tokens (0, 1, …): a stable numeric id. */
  seq: number;
  /** Block where the index first met the token; removing that block removes the token. */
  firstBlock: bigint;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  /** Read once through the EVM, then moved by mints and burns; null when unknown. */
  totalSupply: bigint | null;
  holders: bigint;
  transfers: bigint;
}

/** A copy of a token record, field by field (an object spread takes V8's generic copy, ~4 µs). */
export function copyToken(t: TokenRecord): TokenRecord {
  return {
    type: t.type,
    seq: t.seq,
    firstBlock: t.firstBlock,
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    totalSupply: t.totalSupply,
    holders: t.holders,
    transfers: t.transfers,
  };
}

export function encodeToken(t: TokenRecord): Uint8Array {
  return concat(
    u8(tokenTypeByte(t.type)),
    u32(t.seq),
    u64(t.firstBlock),
    u64(t.holders),
    u64(t.transfers),
    u8((t.decimals === null ? 0 : 1) | (t.totalSupply === null ? 0 : 2)),
    u8(t.decimals ?? 0),
    u256(t.totalSupply ?? 0n),
    encodeText(t.name),
    encodeText(t.symbol),
  );
}

export function decodeToken(b: Uint8Array): TokenRecord {
  const flags = b[29];
  const name = decodeText(b, 63);
  const symbol = decodeText(b, name.next);
  return {
    type: tokenTypeOf(b[0]),
    seq: readU32(b, 1),
    firstBlock: readU64(b, 5),
    holders: readU64(b, 13),
    transfers: readU64(b, 21),
    decimals: flags & 1 ? b[30] : null,
    totalSupply: flags & 2 ? readU256(b, 31) : null,
    name: name.value,
    symbol: symbol.value,
  };
}

/** How a transfer was logged: the event and, for ERC-1155, single or batch. */
export type TransferKind = 'erc20' | 'erc721' | 'erc1155-single' | 'erc1155-batch';
const TRANSFER_KINDS: readonly TransferKind[] = ['erc20', 'erc721', 'erc1155-single', 'erc1155-batch'];

export const transferTokenType = (k: TransferKind): TokenType =>
  k === 'erc20' ? 'ERC-20' : k === 'erc721' ? 'ERC-721' : 'ERC-1155';

/** One token movement; an ERC-1155 batch gives one per (id, value) pair, `sub` its position. */
export interface TransferRecord {
  block: bigint;
  logIndex: number;
  sub: number;
  txIndex: number;
  kind: TransferKind;
  token: Uint8Array;
  from: Uint8Array;
  to: Uint8Array;
  /** ERC-20 and ERC-1155 amount; 1 for ERC-721. */
  amount: bigint;
  /** ERC-721 and ERC-1155 token id. */
  tokenId: bigint | null;
}

/** The record's value; block, log index and sub are its key's (so any transfer row will do, no copy with them). */
export function encodeTransfer(
  t: Pick<TransferRecord, 'txIndex' | 'kind' | 'token' | 'from' | 'to' | 'amount' | 'tokenId'>,
): Uint8Array {
  return concat(
    u32(t.txIndex),
    u8(TRANSFER_KINDS.indexOf(t.kind) | (t.tokenId === null ? 0 : 0x80)),
    t.token,
    t.from,
    t.to,
    u256(t.amount),
    u256(t.tokenId ?? 0n),
  );
}

/** `key` is the record's key: u64 block, u32 log index, u16 sub. */
export function decodeTransfer(key: Uint8Array, b: Uint8Array): TransferRecord {
  const k = b[4];
  return {
    block: readU64(key, 0),
    logIndex: readU32(key, 8),
    sub: readU16(key, 12),
    txIndex: readU32(b, 0),
    kind: TRANSFER_KINDS[k & 0x7f],
    token: b.slice(5, 25),
    from: b.slice(25, 45),
    to: b.slice(45, 65),
    amount: readU256(b, 65),
    tokenId: k & 0x80 ? readU256(b, 97) : null,
  };
}

/** A coin-balance change: the balance after the block and by how much it moved. */
export interface CoinBalanceRecord {
  block: bigint;
  value: bigint;
  delta: bigint;
  /** The last transaction of the block that involved the address, if any. */
  txIndex: number | null;
  /** The address's first balance entry (removing its block forgets the address's balance). */
  first: boolean;
}

const NO_TX = 0xffffffff;

/** u256 value, u8 flags (1: delta negative, 2: first), u256 |delta|, u32 txIndex (NO_TX: none). */
export function encodeCoinBalance(c: CoinBalanceRecord): Uint8Array {
  const neg = c.delta < 0n;
  const b = new Uint8Array(69);
  putU256(b, 0, c.value);
  b[32] = (neg ? 1 : 0) | (c.first ? 2 : 0);
  putU256(b, 33, neg ? -c.delta : c.delta);
  putU32(b, 65, c.txIndex ?? NO_TX);
  return b;
}

export function decodeCoinBalance(block: bigint, b: Uint8Array): CoinBalanceRecord {
  const flags = b[32];
  const abs = readU256(b, 33);
  const tx = readU32(b, 65);
  return {
    block,
    value: readU256(b, 0),
    delta: flags & 1 ? -abs : abs,
    txIndex: tx === NO_TX ? null : tx,
    first: (flags & 2) !== 0,
  };
}

export interface WithdrawalRecord {
  index: bigint;
  block: bigint;
  validatorIndex: bigint;
  address: Uint8Array;
  /** In Gwei, as EIP-4895 carries it. */
  amountGwei: bigint;
}

export function encodeWithdrawal(w: WithdrawalRecord): Uint8Array {
  return concat(u64(w.block), u64(w.validatorIndex), w.address, u64(w.amountGwei));
}

export function decodeWithdrawal(index: bigint, b: Uint8Array): WithdrawalRecord {
  return {
    index,
    block: readU64(b, 0),
    validatorIndex: readU64(b, 8),
    address: b.slice(16, 36),
    amountGwei: readU64(b, 36),
  };
}

export interface ContractRecord {
  creator: Uint8Array | null;
  block: bigint;
  /** Null for contracts of the genesis allocation. */
  txIndex: number | null;
}

export function encodeContract(c: ContractRecord): Uint8Array {
  return concat(c.creator ?? new Uint8Array(20), u8(c.creator ? 1 : 0), u64(c.block), u32(c.txIndex ?? NO_TX));
}

export function decodeContract(b: Uint8Array): ContractRecord {
  const tx = readU32(b, 29);
  return { creator: b[20] === 1 ? b.slice(0, 20) : null, block: readU64(b, 21), txIndex: tx === NO_TX ? null : tx };
}

export interface DailyRecord {
  txCount: bigint;
  gasUsed: bigint;
}

/** u64 txCount, u256 gasUsed. */
export function encodeDaily(d: DailyRecord): Uint8Array {
  const b = new Uint8Array(40);
  putU64(b, 0, d.txCount);
  putU256(b, 8, d.gasUsed);
  return b;
}
export const decodeDaily = (b: Uint8Array): DailyRecord => ({ txCount: readU64(b, 0), gasUsed: readU256(b, 8) });

/** Chain-wide totals for /stats. */
export interface GlobalRecord {
  txCount: bigint;
  addressCount: bigint;
  tokenCount: bigint;
  transferCount: bigint;
  gasUsed: bigint;
  /** Wei: genesis allocation + withdrawals + block rewards − burnt fees. */
  coinSupply: bigint;
}

export const emptyGlobal = (): GlobalRecord => ({
  txCount: 0n,
  addressCount: 0n,
  tokenCount: 0n,
  transferCount: 0n,
  gasUsed: 0n,
  coinSupply: 0n,
});

// Every counter of the totals is rewritten block after block, but a value transfer leaves
// tokenCount and transferCount as they were: on a fresh node the first token transfer was their
// first change, and V8 threw away indexBlock's and the scope flush's code, optimised on them being
// written once. Changing each on throwaway records (both literals share one hidden class) at load
// makes them mutable from the start.
for (const g of [keepPrimed(emptyGlobal()), keepPrimed(decodeGlobal(new Uint8Array(96)))]) {
  g.txCount = g.addressCount = g.tokenCount = g.transferCount = g.gasUsed = g.coinSupply = 1n;
}

/** u64 txCount, addressCount, tokenCount, transferCount, u256 gasUsed, coinSupply. */
export function encodeGlobal(g: GlobalRecord): Uint8Array {
  const b = new Uint8Array(96);
  putU64(b, 0, g.txCount);
  putU64(b, 8, g.addressCount);
  putU64(b, 16, g.tokenCount);
  putU64(b, 24, g.transferCount);
  putU256(b, 32, g.gasUsed);
  putU256(b, 64, g.coinSupply);
  return b;
}

export function decodeGlobal(b: Uint8Array): GlobalRecord {
  return {
    txCount: readU64(b, 0),
    addressCount: readU64(b, 8),
    tokenCount: readU64(b, 16),
    transferCount: readU64(b, 24),
    gasUsed: readU256(b, 32),
    coinSupply: readU256(b, 64),
  };
}

export { readU16, u16 };
