import { type CallRequest, type KernelServices, type StoredBlock, scratchVm } from '@ashlar/core';
import { type Block, createBlock } from '@ethereumjs/block';
import type { VM } from '@ethereumjs/vm';

/** A call without any fee field runs at base fee 0 (as geth's eth_call). */
export function isFeeless(req: CallRequest): boolean {
  return req.gasPrice === undefined && req.maxFeePerGas === undefined && req.maxPriorityFeePerGas === undefined;
}

/** A scratch VM on a block's state (the head's live state root for the head) under its rules. */
export async function vmAtBlock(services: KernelServices, sb: StoredBlock): Promise<VM> {
  const chain = services.chain;
  const root = chain.isHead(sb) ? chain.headStateRoot : sb.block.header.stateRoot;
  return scratchVm(chain, root, { number: sb.number, timestamp: sb.block.header.timestamp });
}

/**
 * The gas a call runs with: the request's, else the block gas limit, under the RPC gas cap and,
 * from Osaka on, EIP-7825's per-transaction cap.
 */
export function callGas(services: KernelServices, vm: VM, req: CallRequest, sb: StoredBlock): bigint {
  let cap = services.options.rpc.callGasCap;
  if (vm.common.isActivatedEIP(7825)) {
    const txCap = vm.common.param('maxTransactionGasLimit');
    if (txCap < cap) cap = txCap;
  }
  const limit = sb.block.header.gasLimit;
  return req.gas ?? (limit < cap ? limit : cap);
}

/** The header a call executes under: the block's, with room for `gas` and, for feeless calls, base fee 0. */
export function callBlock(vm: VM, sb: StoredBlock, gas: bigint, feeless: boolean): Block {
  const h = sb.block.header;
  const header = { ...h.toJSON(), gasLimit: gas > h.gasLimit ? gas : h.gasLimit } as Record<string, unknown>;
  if (feeless && h.baseFeePerGas !== undefined) header.baseFeePerGas = 0n;
  return createBlock({ header }, { common: vm.common, skipConsensusFormatValidation: true });
}
