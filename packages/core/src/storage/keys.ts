// The whole key schema in one place. Numbers in keys are 8-byte big-endian so that
// lexicographic order is numeric order and newest-first listings are reverse range scans.
// The index's fixed-width helpers: they never read `.buffer` of a small new array (see index/codec.ts).
import { concat, u32, u64 } from '../index/codec.js';

export const SUBLEVELS = {
  /** block number (u64) → StoredBlock record (RLP: block, senders, total difficulty) */
  blocks: 'b',
  /** block hash (32) → block number (u64) */
  hashes: 'h',
  /** tx hash (32) → block number (u64) + index (u32) */
  txs: 't',
  /** block number (u64) → receipts of the block (RLP list) */
  receipts: 'r',
  /** trie node hash / code key → node bytes (the state trie, archive) */
  state: 's',
  /** small named values: head, genesis, config fingerprint */
  meta: 'm',
  /** block number (u64) → log context (RLP: block hash, timestamp, logs bloom, tx hashes): eth_getLogs
   * tests blooms and names transactions without decoding whole blocks */
  logCtx: 'l',
  /** block number (u64) → call frames of the block's transactions (RLP, trace/frameCodec.ts); only
   * blocks with transactions mined with the chain option `callFrames` on */
  callFrames: 'c',
  /** block number (u64) → the state root the block was built on; only blocks built after dev
   * state edits, whose starting state is not their parent's post-state */
  preState: 'p',
  /** fork cache (fork/upstream/ForkCache.ts): u64 chain id, u64 fork block, 'd', kind ('a' account,
   * 's' storage), address[, slot] → upstream answer; u64 chain id, u64 block, 'h' → the block's hash;
   * u64 chain id, u64 block, 'n' → entry count */
  forkCache: 'f',
  // The explorer index (index/IndexService.ts; layouts in index/indexKeys.ts). Lists are keyed so
  // that newest-first is a reverse range scan: <owner>[<kind>](u64 block)(u32 index)[(u16 sub)].
  /** index head, format version and chain-wide counters */
  idxMeta: 'xm',
  /** u64 block, u32 tx index → tx kinds (bitmask) */
  idxTx: 'xt',
  /** u8 kind, u64 block, u32 tx index → (empty) */
  idxTxKind: 'xk',
  /** 4-byte selector, u64 block, u32 tx index → (empty) */
  idxTxMethod: 'xs',
  /** address, u8 role (0 from, 1 to/created), u64 block, u32 tx index → (empty) */
  idxAddrTx: 'xa',
  /** u64 block, u32 log index, u16 position in batch → token transfer record */
  idxTransfer: 'xr',
  /** address, u8 token type, u8 role, u64 block, u32 log, u16 sub → (empty) */
  idxAddrTransfer: 'xu',
  /** token, u64 block, u32 log, u16 sub → (empty) */
  idxTokenTransfer: 'xv',
  /** address, token, u8 role, u64 block, u32 log, u16 sub → (empty) */
  idxAddrTokenTransfer: 'xw',
  /** token → token record (type, metadata, supply, holders, transfers) */
  idxToken: 'xo',
  /** u8 token type, u64 holders, token → (empty): tokens by holder count */
  idxTokenRank: 'xp',
  /** lower-cased name or symbol, 0x00, token → (empty): search by prefix */
  idxTokenName: 'xn',
  /** holder, token[, u256 token id] → u256 balance */
  idxTokenBalance: 'xb',
  /** token, u256 balance, holder[, u256 token id] → (empty): holders by balance */
  idxHolderRank: 'xh',
  /** holder, ERC-1155 token → u32 number of the token's ids the holder has a positive balance of:
   * a holder of several ids counts once in the token's holders */
  idxHolderIds: 'xe',
  /** address, u64 block, u32 log index → u32 tx index */
  idxAddrLog: 'xl',
  /** contract → creator, u64 block, u32 tx index */
  idxContract: 'xc',
  /** u64 block, u32 tx index, u32 frame index → (empty): internal transactions, newest first */
  idxInternal: 'xi',
  /** address, u8 role (0 from, 1 to/created), u64 block, u32 tx index, u32 frame index → (empty) */
  idxAddrInternal: 'xj',
  /** address → address record (coin balance, counters) */
  idxAddress: 'xd',
  /** u256 balance, address → (empty): addresses by coin balance */
  idxBalanceRank: 'xq',
  /** u64 transaction count, address → (empty): the addresses of idxBalanceRank by transaction count */
  idxTxCountRank: 'xf',
  /** address, u64 block → coin balance after the block, delta, tx */
  idxCoinHistory: 'xy',
  /** miner, u64 block → (empty) */
  idxValidated: 'xz',
  /** u64 withdrawal index, u64 block → block, validator, receiver, amount */
  idxWithdrawal: 'xx',
  /** u32 day since 1970 → tx count, gas used */
  idxDaily: 'xg',
  /** contract address → verified contract record (JSON: sources, ABI, compiler and settings, match);
   * written by the explorer's verifier (explorer/src/verify), one batch per verification. Not part
   * of the index: a reindex keeps it. */
  verifiedContracts: 'vc',
  /** plugin name, then table name → a plugin's own keys (kernel/PluginStore.ts); a plugin sees
   * only its own tables, never the chain's sublevels */
  plugins: 'plugin',
} as const;

export const META = {
  head: new TextEncoder().encode('head'),
  genesis: new TextEncoder().encode('genesis'),
  /** state root of the head, which dev methods (setBalance …) may move without a block */
  headState: new TextEncoder().encode('headState'),
  /** first block written with a log context (databases made before log contexts existed) */
  logCtxFrom: new TextEncoder().encode('logCtxFrom'),
} as const;

export const blockKey = (n: bigint): Uint8Array => u64(n);
export const txKeyValue = (n: bigint, index: number): Uint8Array => concat(u64(n), u32(index));
