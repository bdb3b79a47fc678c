import type { TokenRecord, TransferKind } from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';
import type { Facts } from '../Explorer.js';
import { refOf } from './addressRef.js';
import { dec, hex, isoTime } from './format.js';
import { tokenJson } from './token.js';

/** A token movement with where it happened: one log, or one (id, value) pair of an ERC-1155 batch. */
export interface TransferView {
  kind: TransferKind;
  token: Uint8Array;
  from: Uint8Array;
  to: Uint8Array;
  amount: bigint;
  tokenId: bigint | null;
  logIndex: number;
  sub: number;
  block: bigint;
  blockHash: Uint8Array;
  timestamp: bigint;
  txHash: Uint8Array;
  method: string | null;
}

const isZero = (a: Uint8Array) => a.every((b) => b === 0);

/** Unknown to the index (it stopped, or the token appeared in a pending view): a record of nulls. */
const unknownToken = (kind: TransferKind): TokenRecord => ({
  type: kind === 'erc20' ? 'ERC-20' : kind === 'erc721' ? 'ERC-721' : 'ERC-1155',
  seq: 0,
  firstBlock: 0n,
  name: null,
  symbol: null,
  decimals: null,
  totalSupply: null,
  holders: 0n,
  transfers: 0n,
});

function total(t: TransferView, decimals: number | null) {
  const d = decimals === null ? null : dec(decimals);
  if (t.kind === 'erc20') return { decimals: d, value: dec(t.amount) };
  const tokenId = t.tokenId === null ? null : dec(t.tokenId);
  if (t.kind === 'erc721') return { token_id: tokenId, token_instance: null };
  return { token_id: tokenId, value: dec(t.amount), decimals: d, token_instance: null };
}

/**
 * A token transfer as Blockscout serves it: spec §2.5's `tx_hash` and Blockscout 10's
 * `transaction_hash`, one value; `type` tells mints and burns apart as Blockscout does.
 */
export function tokenTransferJson(t: TransferView, facts: Facts) {
  const rec = facts.tokens.get(bytesToHex(t.token)) ?? unknownToken(t.kind);
  const txHash = hex(t.txHash);
  return {
    tx_hash: txHash,
    transaction_hash: txHash,
    block_hash: hex(t.blockHash),
    block_number: Number(t.block),
    log_index: t.logIndex,
    timestamp: isoTime(t.timestamp),
    method: t.method,
    from: refOf(t.from, facts),
    to: refOf(t.to, facts),
    token: tokenJson(t.token, rec),
    token_type: rec.type,
    total: total(t, rec.decimals),
    type: isZero(t.from) ? 'token_minting' : isZero(t.to) ? 'token_burning' : 'token_transfer',
  };
}
