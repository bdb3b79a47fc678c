import { toData, toQuantity } from '@ashlar/core';
import {
  isAccessList2930Tx,
  isBlob4844Tx,
  isEOACode7702Tx,
  isFeeMarket1559Tx,
  isLegacyTx,
  type TypedTransaction,
} from '@ethereumjs/tx';
import { type Address, bytesToBigInt } from '@ethereumjs/util';
import type { Hex, RpcAccessListEntry, RpcAuthorization, RpcTransaction } from './types.js';

/** Where a mined transaction sits; omit it for a pending transaction. */
export interface TxBlockLocation {
  blockHash: Uint8Array;
  blockNumber: bigint;
  /** Position in the block. */
  index: number;
  blockTimestamp: bigint;
  /** The block's base fee (London+): makes `gasPrice` the effective price for fee-market txs. */
  baseFee?: bigint;
}

/** Same as TxBlockLocation, with the block-level values already hex-encoded (one encoding per block). */
export interface HexTxBlockLocation {
  blockHash: Hex;
  blockNumber: Hex;
  index: number;
  blockTimestamp: Hex;
  baseFee?: bigint;
}

const toAddressHex = (a: Address): Hex => a.toString().toLowerCase() as Hex;

function accessListToRpc(list: [Uint8Array, Uint8Array[]][]): RpcAccessListEntry[] {
  return list.map(([address, keys]) => ({
    address: toData(address),
    storageKeys: keys.map((k) => toData(k)),
  }));
}

function authorizationListToRpc(list: Uint8Array[][]): RpcAuthorization[] {
  return list.map(([chainId, address, nonce, yParity, r, s]) => ({
    chainId: toQuantity(bytesToBigInt(chainId)),
    address: toData(address),
    nonce: toQuantity(bytesToBigInt(nonce)),
    yParity: toQuantity(bytesToBigInt(yParity)),
    r: toQuantity(bytesToBigInt(r)),
    s: toQuantity(bytesToBigInt(s)),
  }));
}

/** geth: min(maxFeePerGas, baseFee + maxPriorityFeePerGas). */
export function effectiveGasPrice(maxFeePerGas: bigint, maxPriorityFeePerGas: bigint, baseFee: bigint): bigint {
  const p = baseFee + maxPriorityFeePerGas;
  return p < maxFeePerGas ? p : maxFeePerGas;
}

/** The chain id a legacy tx's `v` commits to (EIP-155), or undefined for an unprotected tx (v = 27/28). */
function legacyChainId(v: bigint | undefined): bigint | undefined {
  if (v === undefined || v === 27n || v === 28n || v < 35n) return undefined;
  return (v - 35n) / 2n;
}

function toHexLocation(loc: TxBlockLocation): HexTxBlockLocation {
  const out: HexTxBlockLocation = {
    blockHash: toData(loc.blockHash),
    blockNumber: toQuantity(loc.blockNumber),
    index: loc.index,
    blockTimestamp: toQuantity(loc.blockTimestamp),
  };
  if (loc.baseFee !== undefined) out.baseFee = loc.baseFee;
  return out;
}

/**
 * Transaction object as geth returns it. Without `loc` the transaction is pending:
 * blockHash/blockNumber/blockTimestamp/transactionIndex are null and a fee-market tx reports
 * `gasPrice = maxFeePerGas`; once mined, `gasPrice` is the effective price.
 */
export function toRpcTransaction(tx: TypedTransaction, sender: Address, loc?: TxBlockLocation): RpcTransaction {
  return formatTransaction(tx, sender, loc === undefined ? undefined : toHexLocation(loc));
}

/** toRpcTransaction with pre-encoded block values (used when formatting a whole block). */
export function formatTransaction(tx: TypedTransaction, sender: Address, loc?: HexTxBlockLocation): RpcTransaction {
  let gasPrice: bigint;
  let maxFeePerGas: bigint | undefined;
  let maxPriorityFeePerGas: bigint | undefined;
  if (isLegacyTx(tx) || isAccessList2930Tx(tx)) {
    gasPrice = tx.gasPrice;
  } else if (isFeeMarket1559Tx(tx) || isBlob4844Tx(tx) || isEOACode7702Tx(tx)) {
    maxFeePerGas = tx.maxFeePerGas;
    maxPriorityFeePerGas = tx.maxPriorityFeePerGas;
    gasPrice =
      loc?.baseFee !== undefined ? effectiveGasPrice(maxFeePerGas, maxPriorityFeePerGas, loc.baseFee) : maxFeePerGas;
  } else {
    throw new Error(`unsupported transaction type ${(tx as { type: number }).type}`);
  }

  const out: RpcTransaction = {
    blockHash: loc ? loc.blockHash : null,
    blockNumber: loc ? loc.blockNumber : null,
    blockTimestamp: loc ? loc.blockTimestamp : null,
    from: toAddressHex(sender),
    gas: toQuantity(tx.gasLimit),
    gasPrice: toQuantity(gasPrice),
  } as RpcTransaction;
  if (maxFeePerGas !== undefined) out.maxFeePerGas = toQuantity(maxFeePerGas);
  if (maxPriorityFeePerGas !== undefined) out.maxPriorityFeePerGas = toQuantity(maxPriorityFeePerGas);
  if (isBlob4844Tx(tx)) out.maxFeePerBlobGas = toQuantity(tx.maxFeePerBlobGas);
  out.hash = toData(tx.hash());
  out.input = toData(tx.data);
  out.nonce = toQuantity(tx.nonce);
  out.to = tx.to === undefined ? null : toAddressHex(tx.to);
  out.transactionIndex = loc ? toQuantity(loc.index) : null;
  out.value = toQuantity(tx.value);
  out.type = toQuantity(tx.type);
  if (isLegacyTx(tx)) {
    const chainId = legacyChainId(tx.v);
    if (chainId !== undefined) out.chainId = toQuantity(chainId);
  } else {
    out.accessList = accessListToRpc(tx.accessList);
    out.chainId = toQuantity(tx.chainId);
    if (isBlob4844Tx(tx)) out.blobVersionedHashes = tx.blobVersionedHashes.map((h) => h.toLowerCase() as Hex);
    if (isEOACode7702Tx(tx)) out.authorizationList = authorizationListToRpc(tx.authorizationList);
  }
  const v = tx.v ?? 0n;
  out.v = toQuantity(v);
  out.r = toQuantity(tx.r ?? 0n);
  out.s = toQuantity(tx.s ?? 0n);
  if (!isLegacyTx(tx)) out.yParity = toQuantity(v);
  return out;
}
