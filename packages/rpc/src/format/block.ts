import { type StoredBlock, toData, toQuantity } from '@ashlar/core';
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { Address } from '@ethereumjs/util';
import { bloomHex } from './bloomHex.js';
import { formatTransaction } from './transaction.js';
import type { Hex, RpcBlock, RpcTransaction, RpcWithdrawal } from './types.js';

export interface RpcBlockOptions {
  /**
   * Include `totalDifficulty` (default true, as interface-spec §2.4 lists it). Current geth and
   * the execution-apis vectors omit it: pass false for byte-exact geth output.
   */
  totalDifficulty?: boolean;
}

/** Header fields in geth's order; pending blocks null out number/hash/nonce/logsBloom afterwards. */
function headerFields(h: BlockHeader, hash: Hex | null, number: Hex | null): RpcBlock {
  const out = {
    number,
    hash,
    parentHash: toData(h.parentHash),
    nonce: toData(h.nonce),
    mixHash: toData(h.mixHash),
    sha3Uncles: toData(h.uncleHash),
    logsBloom: bloomHex(h.logsBloom),
    stateRoot: toData(h.stateRoot),
    miner: h.coinbase.toString().toLowerCase() as Hex,
    difficulty: toQuantity(h.difficulty),
    extraData: toData(h.extraData),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    timestamp: toQuantity(h.timestamp),
    transactionsRoot: toData(h.transactionsTrie),
    receiptsRoot: toData(h.receiptTrie),
  } as RpcBlock;
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = toQuantity(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) out.withdrawalsRoot = toData(h.withdrawalsRoot);
  if (h.blobGasUsed !== undefined) out.blobGasUsed = toQuantity(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = toQuantity(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = toData(h.parentBeaconBlockRoot);
  if (h.requestsHash !== undefined) out.requestsHash = toData(h.requestsHash);
  if (h.blockAccessListHash !== undefined) out.blockAccessListHash = toData(h.blockAccessListHash);
  if (h.slotNumber !== undefined) out.slotNumber = toQuantity(h.slotNumber);
  return out;
}

function bodyFields(
  out: RpcBlock,
  block: Block,
  senders: readonly Address[],
  full: boolean,
  size: number,
  location: { blockHash: Hex; blockNumber: Hex; blockTimestamp: Hex } | undefined,
): void {
  out.size = toQuantity(size);
  const txs = block.transactions;
  if (full) {
    const baseFee = block.header.baseFeePerGas;
    const list: RpcTransaction[] = new Array(txs.length);
    for (let i = 0; i < txs.length; i++) {
      const sender = senders[i];
      if (sender === undefined) throw new RangeError(`missing sender of transaction ${i}`);
      list[i] = formatTransaction(
        txs[i],
        sender,
        location === undefined
          ? undefined
          : {
              ...location,
              index: i,
              ...(baseFee === undefined ? {} : { baseFee }),
            },
      );
    }
    out.transactions = list;
  } else {
    out.transactions = txs.map((tx) => toData(tx.hash()));
  }
  out.uncles = block.uncleHeaders.map((u) => toData(u.hash()));
  if (block.header.withdrawalsRoot !== undefined) {
    out.withdrawals = (block.withdrawals ?? []).map(
      (w): RpcWithdrawal => ({
        index: toQuantity(w.index),
        validatorIndex: toQuantity(w.validatorIndex),
        address: w.address.toString().toLowerCase() as Hex,
        amount: toQuantity(w.amount),
      }),
    );
  }
}

/** Inserts totalDifficulty after difficulty (key order as geth used to print it). */
function withTotalDifficulty(out: RpcBlock, td: Hex | null): RpcBlock {
  const res = {} as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) {
    res[k] = v;
    if (k === 'difficulty') res.totalDifficulty = td;
  }
  return res as unknown as RpcBlock;
}

/** Block object for eth_getBlockByNumber / eth_getBlockByHash; `full` embeds transaction objects. */
export function toRpcBlock(sb: StoredBlock, full: boolean, opts?: RpcBlockOptions): RpcBlock {
  const h = sb.block.header;
  const blockHash = toData(sb.hash);
  const blockNumber = toQuantity(sb.number);
  const out = headerFields(h, blockHash, blockNumber);
  bodyFields(out, sb.block, sb.senders, full, sb.size, {
    blockHash,
    blockNumber,
    blockTimestamp: toQuantity(h.timestamp),
  });
  return opts?.totalDifficulty === false ? out : withTotalDifficulty(out, toQuantity(sb.totalDifficulty));
}

/** What the node knows about the block it would build next. */
export interface PendingBlockInput {
  /** A block assembled on top of the head (header + pending transactions); it is never hashed. */
  block: Block;
  /** Sender of each transaction, in order. */
  senders: readonly Address[];
  /** Head total difficulty + this block's difficulty; null in the output when unknown. */
  totalDifficulty?: bigint;
  /** RLP size in bytes; computed from the block when omitted. */
  size?: number;
}

/**
 * Pending block object (interface-spec §3): number, hash, nonce and logsBloom are null; full
 * transactions are in their pending form (block fields null, fee-market gasPrice = maxFeePerGas).
 */
export function toRpcPendingBlock(input: PendingBlockInput, full: boolean, opts?: RpcBlockOptions): RpcBlock {
  const out = headerFields(input.block.header, null, null);
  out.nonce = null;
  out.logsBloom = null;
  bodyFields(out, input.block, input.senders, full, input.size ?? input.block.serialize().length, undefined);
  if (opts?.totalDifficulty === false) return out;
  return withTotalDifficulty(out, input.totalDifficulty === undefined ? null : toQuantity(input.totalDifficulty));
}
