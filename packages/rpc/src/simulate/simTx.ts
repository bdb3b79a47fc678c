import { type CallRequest, accessListField, authorizationListField, paramsTable } from '@ashlar/core';
import type { Common } from '@ethereumjs/common';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { type Address, MAX_UINT64, bytesToHex } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
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
  // @ethereumjs/tx refuses nonce 2^64-1 (EIP-2681's cap, valid only as an account's state); geth's
  // simulator builds it anyway without validation. Built with 0, the field is set after.
  const overflowing = nonce >= MAX_UINT64;
  const data: Record<string, unknown> = {
    type,
    nonce: overflowing ? 0n : nonce,
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
  if (overflowing) (tx as { nonce: bigint }).nonce = nonce;
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

/**
 * geth keeps nonces in a uint64: a call from an account at 2^64-1 (no validation) leaves it at 0,
 * where @ethereumjs counts on to 2^64. Run after each call so state roots and later nonces match.
 */
export async function wrapSenderNonce(vm: VM, from: Address): Promise<void> {
  const account = await vm.stateManager.getAccount(from);
  if (account === undefined || account.nonce <= MAX_UINT64) return;
  account.nonce &= MAX_UINT64;
  await vm.stateManager.putAccount(from, account);
}

/**
 * Runs `build` with @ethereumjs's BlockBuilder able to finish a block holding a transaction at
 * nonce 2^64-1: its final createBlock re-creates every transaction from its fields and refuses
 * that nonce. The transactions trie is taken from the real transactions first; createBlock then
 * sees copies at nonce 0 (the caller keeps the real ones for the block it returns).
 */
export async function withOverflowingNonces<T>(
  builder: { transactions: TypedTransaction[]; transactionsTrie(): Promise<Uint8Array> },
  build: () => Promise<T>,
): Promise<T> {
  if (!builder.transactions.some((tx) => tx.nonce >= MAX_UINT64)) return build();
  const root = await builder.transactionsTrie();
  const real = builder.transactions;
  builder.transactionsTrie = async () => root;
  builder.transactions = real.map((tx) =>
    tx.nonce >= MAX_UINT64 ? createTx({ ...tx.toJSON(), nonce: 0n }, { common: tx.common, freeze: false }) : tx,
  );
  return build();
}
