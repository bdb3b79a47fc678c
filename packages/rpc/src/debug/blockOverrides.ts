import type { Block } from '@ethereumjs/block';
import { createBlock } from '@ethereumjs/block';
import type { VM } from '@ethereumjs/vm';
import { decodeAddress, decodeHash, decodeObject, decodeQuantity, optField } from '../params/index.js';
import { type BlockOverrides, decodeBlockOverrides } from '../simulate/params.js';

/**
 * geth's `blockOverrides` of debug_traceCall (override.BlockOverrides: number, difficulty, time,
 * gasLimit, feeRecipient, prevRandao, baseFeePerGas, blobBaseFee), also under the names geth
 * used before 1.13 (`coinbase`, `random`, `baseFee`), which older clients still send.
 */
export interface TraceBlockOverrides extends BlockOverrides {
  difficulty?: bigint;
}

export function decodeTraceBlockOverrides(v: unknown): TraceBlockOverrides {
  const o = decodeObject(v, 'override.BlockOverrides');
  const out: TraceBlockOverrides = decodeBlockOverrides(v);
  const coinbase = optField(o, 'coinbase', decodeAddress);
  const random = optField(o, 'random', decodeHash);
  const baseFee = optField(o, 'baseFee', decodeQuantity);
  const difficulty = optField(o, 'difficulty', decodeQuantity);
  if (out.feeRecipient === undefined && coinbase !== undefined) out.feeRecipient = coinbase;
  if (out.prevRandao === undefined && random !== undefined) out.prevRandao = random;
  if (out.baseFeePerGas === undefined && baseFee !== undefined) out.baseFeePerGas = baseFee;
  if (difficulty !== undefined) out.difficulty = difficulty;
  return out;
}

/**
 * The block a traced call executes in, with the overridden header fields (its hash is not the
 * chain's). A fee-less call keeps base fee 0 (as eth_call and the simulator run it): with an
 * overridden base fee it would fail the fee check that geth's NoBaseFee skips.
 */
export function overrideBlock(vm: VM, block: Block, o: TraceBlockOverrides | undefined, feeless: boolean): Block {
  if (o === undefined) return block;
  const header = block.header.toJSON() as Record<string, unknown>;
  if (o.number !== undefined) header.number = o.number;
  if (o.time !== undefined) header.timestamp = o.time;
  if (o.gasLimit !== undefined) header.gasLimit = o.gasLimit;
  if (o.feeRecipient !== undefined) header.coinbase = o.feeRecipient;
  if (o.prevRandao !== undefined) header.mixHash = o.prevRandao;
  if (o.difficulty !== undefined) header.difficulty = o.difficulty;
  if (o.baseFeePerGas !== undefined && header.baseFeePerGas !== undefined && !feeless)
    header.baseFeePerGas = o.baseFeePerGas;
  const out = createBlock({ header }, { common: vm.common, skipConsensusFormatValidation: true, freeze: false });
  const blobFee = o.blobBaseFee;
  if (blobFee !== undefined) (out.header as { getBlobGasPrice: () => bigint }).getBlobGasPrice = () => blobFee;
  return out;
}
