import {
  AshlarError,
  ErrorCodes,
  type KernelServices,
  MempoolService,
  type StoredBlock,
  scratchVm,
  toData,
  toQuantity,
} from '@ashlar/core';
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type TypedTransaction, createTxFromRLP } from '@ethereumjs/tx';
import { type WithdrawalData, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { buildBlock } from '@ethereumjs/vm';
import { calcGasLimit } from './gasLimit.js';

export interface PayloadAttributes {
  timestamp: bigint;
  prevRandao: Uint8Array;
  suggestedFeeRecipient: string;
  withdrawals?: WithdrawalData[];
  parentBeaconBlockRoot?: Uint8Array;
}

export interface BuiltPayload {
  block: Block;
  /** Fees the fee recipient earns (tips). */
  value: bigint;
  /** EIP-7685 requests, type byte first; empty ones left out (as the Engine API sends them). */
  requests: Uint8Array[];
}

const txError = (message: string) => new AshlarError(ErrorCodes.EXECUTION, message);

/**
 * Builds the block that would follow `parent` with the given transactions (raw, or the pool's
 * executable ones when null), on a scratch copy of the state: the chain does not change.
 * An explicit transaction that cannot be included is an error; pool ones are skipped.
 */
export async function buildPayload(
  services: KernelServices,
  parent: StoredBlock,
  attrs: PayloadAttributes,
  rawTxs: Uint8Array[] | null,
  extraData: Uint8Array,
): Promise<BuiltPayload> {
  const chain = services.chain;
  const number = parent.number + 1n;
  const root = chain.isHead(parent) ? chain.headStateRoot : parent.block.header.stateRoot;
  const vm = await scratchVm(chain, root, { number, timestamp: attrs.timestamp });
  const common = vm.common;
  const p = parent.block.header;
  const headerData: Record<string, unknown> = {
    number,
    parentHash: parent.hash,
    coinbase: createAddressFromString(attrs.suggestedFeeRecipient),
    timestamp: attrs.timestamp,
    gasLimit: calcGasLimit(p.gasLimit, services.options.chain.gasLimit),
    mixHash: attrs.prevRandao,
    extraData,
  };
  if (common.isActivatedEIP(1559)) headerData.baseFeePerGas = p.calcNextBaseFee();
  if (common.isActivatedEIP(4844)) headerData.excessBlobGas = p.calcNextExcessBlobGas(common);
  if (common.isActivatedEIP(4788)) headerData.parentBeaconBlockRoot = attrs.parentBeaconBlockRoot ?? new Uint8Array(32);
  const builder = await buildBlock(vm, {
    parentBlock: parent.block,
    headerData,
    withdrawals: common.isActivatedEIP(4895) ? (attrs.withdrawals ?? []) : undefined,
    blockOpts: { putBlockIntoBlockchain: false, common, setHardfork: true },
  });
  const explicit = rawTxs !== null;
  const txs: TypedTransaction[] = explicit ? rawTxs.map((raw) => decode(raw, common)) : await poolTxs(services);
  for (const tx of txs) {
    try {
      if (explicit) await checkNonce(vm, tx);
      await builder.addTransaction(tx, { allowNoBlobs: true, skipHardForkValidation: true });
    } catch (e) {
      if (!explicit) continue;
      if (e instanceof AshlarError) throw e;
      throw txError(e instanceof Error ? e.message.split(' -> ')[0] : String(e));
    }
  }
  const { block, requests } = await builder.build();
  return {
    block,
    value: builder.minerValue,
    requests: (requests ?? []).filter((r) => r.data.length > 0).map((r) => r.bytes),
  };
}

function decode(raw: Uint8Array, common: Common): TypedTransaction {
  try {
    return createTxFromRLP(raw, { common });
  } catch (e) {
    throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid transaction: ${e instanceof Error ? e.message : e}`);
  }
}

/** geth's wording for a nonce that does not match the sender's account. */
async function checkNonce(vm: Awaited<ReturnType<typeof scratchVm>>, tx: TypedTransaction): Promise<void> {
  const sender = tx.getSenderAddress();
  const have = (await vm.stateManager.getAccount(sender))?.nonce ?? 0n;
  if (tx.nonce === have) return;
  const which = tx.nonce > have ? 'nonce too high' : 'nonce too low';
  throw txError(`${which}: address ${sender.toString()}, tx: ${tx.nonce} state: ${have}`);
}

/** The pool's transactions as the miner would order them for the next block. */
async function poolTxs(services: KernelServices): Promise<TypedTransaction[]> {
  const { chain, mempool, miner } = services;
  return chain.exclusive(async () => {
    const nonces = new Map<string, bigint>();
    for (const s of mempool.senders()) {
      nonces.set(s, (await chain.vm.stateManager.getAccount(createAddressFromString(s)))?.nonce ?? 0n);
    }
    const { pending } = mempool.partition((s) => nonces.get(s) ?? 0n);
    return MempoolService.orderForBlock(pending, miner.nextBlockBaseFee() ?? 0n).map((p) => p.tx);
  });
}

/** The Engine API's ExecutionPayload of a built block (V3 field set: no beacon root, no requests hash). */
export function executionPayload(block: Block): Record<string, unknown> {
  const h = block.header;
  const out: Record<string, unknown> = {
    parentHash: toData(h.parentHash),
    feeRecipient: h.coinbase.toString(),
    stateRoot: toData(h.stateRoot),
    receiptsRoot: toData(h.receiptTrie),
    logsBloom: toData(h.logsBloom),
    prevRandao: toData(h.mixHash),
    blockNumber: toQuantity(h.number),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    timestamp: toQuantity(h.timestamp),
    extraData: toData(h.extraData),
    baseFeePerGas: toQuantity(h.baseFeePerGas ?? 0n),
    blockHash: toData(block.hash()),
    transactions: block.transactions.map((tx) => bytesToHex(tx.serialize())),
  };
  if (block.withdrawals !== undefined)
    out.withdrawals = block.withdrawals.map((w) => ({
      index: toQuantity(w.index),
      validatorIndex: toQuantity(w.validatorIndex),
      address: w.address.toString(),
      amount: toQuantity(w.amount),
    }));
  if (h.blobGasUsed !== undefined) out.blobGasUsed = toQuantity(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = toQuantity(h.excessBlobGas);
  return out;
}
