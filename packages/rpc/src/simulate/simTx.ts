import { type CallRequest, accessListField, authorizationListField, paramsTable } from '@ashlar/core';
import type { Common } from '@ethereumjs/common';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { type Address, bytesToHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * The unsigned transaction geth's simulator makes of a call (TransactionArgs.ToTransaction with
 * a dynamic-fee default): legacy when `gasPrice` is given, else set-code, blob, dynamic-fee by
 * the fields present. Its signature is zero: the hash is keccak256 of that encoding, and the
 * sender is the call's `from`, not recovered.
 */
export function simTransaction(
  common: Common,
  req: CallRequest,
  from: Address,
  gas: bigint,
  nonce: bigint,
  chainId: bigint,
): TypedTransaction {
  let type = 2;
  if (req.authorizationList !== undefined) type = 4;
  else if (req.blobVersionedHashes !== undefined) type = 3;
  if (req.gasPrice !== undefined) type = 0;
  const data: Record<string, unknown> = {
    type,
    nonce,
    gasLimit: gas,
    to: req.to ?? undefined,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(),
  };
  if (type === 0) data.gasPrice = req.gasPrice;
  else {
    data.chainId = chainId;
    data.maxFeePerGas = req.maxFeePerGas ?? 0n;
    data.maxPriorityFeePerGas = req.maxPriorityFeePerGas ?? 0n;
    data.accessList = accessListField(req);
  }
  if (type === 3) {
    data.blobVersionedHashes = (req.blobVersionedHashes ?? []).map((h) => bytesToHex(h));
    data.maxFeePerBlobGas = req.maxFeePerBlobGas ?? 0n;
  }
  if (type === 4) {
    data.authorizationList = authorizationListField(req);
  }
  const tx = createTx(data as Parameters<typeof createTx>[0], { common, freeze: false });
  const hash = keccak_256(tx.serialize());
  const patched = tx as { getSenderAddress: () => Address; hash: () => Uint8Array };
  patched.getSenderAddress = () => from;
  patched.hash = () => hash;
  return tx;
}

/**
 * Lets a scratch Common build transactions above EIP-7825's 2^24 gas cap: geth's simulator
 * defaults a call's gas to the RPC gas cap (50M) and runs it so. The parameter table is first
 * detached from the one the chain's Common shares, so nothing outside this Common changes.
 */
export function liftTxGasCap(common: Common): void {
  common.resetParams(JSON.parse(JSON.stringify(paramsTable(common))));
  common.updateParams({ 7825: { maxTransactionGasLimit: Number.MAX_SAFE_INTEGER } });
}
