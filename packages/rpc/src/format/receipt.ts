import { type StoredBlock, toData, toQuantity } from '@ashlar/core';
import { isBlob4844Tx } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, generateAddress } from '@ethereumjs/util';
import { bloomHex } from './bloomHex.js';
import { type BlockHexContext, blockHexContext, formatLog } from './log.js';
import type { Hex, RpcLog, RpcReceipt } from './types.js';

/** EIP-4844 gas per blob. */
const GAS_PER_BLOB = 131072n;

function formatReceipt(sb: StoredBlock, index: number, firstLogIndex: number, ctx: BlockHexContext): RpcReceipt {
  const tx = sb.block.transactions[index];
  const r = sb.receipts[index];
  const sender = sb.senders[index];
  if (tx === undefined || r === undefined || sender === undefined) {
    throw new RangeError(`no transaction ${index} in block ${sb.number}`);
  }
  const txHash = toData(tx.hash());
  const txIndex = toQuantity(index);
  const logs: RpcLog[] = r.logs.map((log, i) => formatLog(log, ctx, txHash, txIndex, firstLogIndex + i, false));

  let contractAddress: Hex | null = null;
  if (r.contractAddress !== undefined) contractAddress = toData(r.contractAddress);
  // geth derives it for every creation, failed ones included
  else if (tx.to === undefined)
    contractAddress = toData(generateAddress(sender.bytes, bigIntToUnpaddedBytes(tx.nonce)));

  const out = {
    blockHash: ctx.blockHash,
    blockNumber: ctx.blockNumber,
    contractAddress,
    cumulativeGasUsed: toQuantity(r.cumulativeGasUsed),
    effectiveGasPrice: toQuantity(r.effectiveGasPrice),
    from: sender.toString().toLowerCase() as Hex,
    gasUsed: toQuantity(r.gasUsed),
    logs,
    logsBloom: bloomHex(r.bloom),
  } as RpcReceipt;
  if (r.root !== undefined && r.root.length > 0) out.root = toData(r.root);
  else out.status = toQuantity(r.status ?? 0);
  out.to = tx.to === undefined ? null : (tx.to.toString().toLowerCase() as Hex);
  out.transactionHash = txHash;
  out.transactionIndex = txIndex;
  out.type = toQuantity(tx.type);
  if (isBlob4844Tx(tx)) {
    out.blobGasUsed = toQuantity(r.blobGasUsed ?? BigInt(tx.blobVersionedHashes.length) * GAS_PER_BLOB);
    out.blobGasPrice = toQuantity(r.blobGasPrice ?? sb.block.header.getBlobGasPrice());
  }
  return out;
}

function firstLogIndexOf(sb: StoredBlock, index: number): number {
  let n = 0;
  for (let i = 0; i < index; i++) n += sb.receipts[i].logs.length;
  return n;
}

/** Receipt of transaction `index` in a stored block (eth_getTransactionReceipt). */
export function toRpcReceipt(sb: StoredBlock, index: number): RpcReceipt {
  return formatReceipt(sb, index, firstLogIndexOf(sb, index), blockHexContext(sb));
}

/** All receipts of a block, log indexes computed in one pass (eth_getBlockReceipts). */
export function toRpcReceipts(sb: StoredBlock): RpcReceipt[] {
  const ctx = blockHexContext(sb);
  const out: RpcReceipt[] = [];
  let logIndex = 0;
  for (let i = 0; i < sb.receipts.length; i++) {
    out.push(formatReceipt(sb, i, logIndex, ctx));
    logIndex += sb.receipts[i].logs.length;
  }
  return out;
}
