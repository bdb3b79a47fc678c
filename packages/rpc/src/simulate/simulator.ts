import {
  AshlarError,
  ErrorCodes,
  type KernelServices,
  type StoredBlock,
  decodeRevertReason,
  precompileTable,
  scratchVm,
} from '@ashlar/core';
import { Block, type HeaderData, createBlock } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, MAX_UINT64, bytesToHex, toChecksumAddress } from '@ethereumjs/util';
import { type RunTxResult, type VM, buildBlock, runTx } from '@ethereumjs/vm';
import { callAborted, underTimeLimit } from '../shared/timeLimit.js';
import { simulationError } from './errors.js';
import { type IndexedLog, LogTracer } from './logTracer.js';
import { applySimOverrides, splitPrecompileTables } from './overrides.js';
import type { SimOptions } from './params.js';
import { type PlannedBlock, planBlocks } from './sanitize.js';
import { liftTxGasCap, simTransaction, withOverflowingNonces, wrapSenderNonce } from './simTx.js';

const ZERO_ADDRESS = new Address(new Uint8Array(20));
const GAS_PER_BLOB = 131072n;

/** execution-apis: a call that failed in the EVM (other than a revert). */
export const VM_ERROR_CODE = -32015;
/** A revert, as eth_call reports it. */
export const REVERT_CODE = 3;

export interface SimCallResult {
  returnData: Uint8Array;
  logs: IndexedLog[];
  gasUsed: bigint;
  maxUsedGas: bigint;
  status: 0 | 1;
  error?: { code: number; message: string; data?: string };
}

export interface SimulatedBlock {
  block: Block;
  senders: Address[];
  calls: SimCallResult[];
}

/** The parts of @ethereumjs/vm's BlockBuilder driven directly (as the miner does, see assembleBlock.ts). */
interface BuilderInternals {
  transactions: TypedTransaction[];
  transactionsTrie(): Promise<Uint8Array>;
  transactionResults: RunTxResult[];
  gasUsed: bigint;
  blobGasUsed: bigint;
  _minerValue: bigint;
  checkpointed: boolean;
}

/**
 * eth_simulateV1 as geth runs it: blocks on top of `base`, each with its overrides and calls,
 * executed on a scratch state (the chain never changes) with the system calls, withdrawals
 * (none) and requests of a real block, so roots and hashes are those the block would have.
 */
export async function simulate(
  services: KernelServices,
  base: StoredBlock,
  opts: SimOptions,
): Promise<SimulatedBlock[]> {
  const chain = services.chain;
  const baseHeader = base.block.header;
  const plan = planBlocks(opts.blocks, { number: base.number, time: baseHeader.timestamp });
  if (plan.length === 0) return [];
  const root = chain.isHead(base) ? chain.headStateRoot : baseHeader.stateRoot;
  const vm = await scratchVm(chain, root, { number: plan[0].number, timestamp: plan[0].time });
  liftTxGasCap(vm.common);
  const basePrecompiles = new Map(precompileTable(vm.evm));
  splitPrecompileTables(vm, basePrecompiles);
  const simulated = new Map<bigint, Block>();
  answerBlockHashFrom(vm, simulated);

  const out: SimulatedBlock[] = [];
  let parent = base.block;
  // A block without overrides keeps its predecessor's fee recipient, gas limit and difficulty.
  let coinbase = baseHeader.coinbase;
  let gasLimit = baseHeader.gasLimit;
  // geth: one gas allowance (the RPC gas cap) for all calls of the request together.
  const pool = { gas: services.options.rpc.callGasCap };
  // The call timeout covers the whole request, every block and call of it (as geth).
  const limit = services.options.rpc.callTimeoutMs;
  await underTimeLimit(
    vm,
    limit,
    async () => {
      for (const pb of plan) {
        coinbase = pb.overrides.feeRecipient ?? coinbase;
        gasLimit = pb.overrides.gasLimit ?? gasLimit;
        const inherited = { coinbase, gasLimit, difficulty: baseHeader.difficulty };
        const result = await simulateBlock(vm, parent, pb, inherited, { pool, basePrecompiles }, opts);
        out.push(result);
        simulated.set(pb.number, result.block);
        parent = result.block;
      }
    },
    callAborted,
  );
  return out;
}

/** BLOCKHASH of a simulated block answers its simulated hash (the chain's blocks otherwise). */
function answerBlockHashFrom(vm: VM, simulated: Map<bigint, Block>): void {
  const blockchain = (vm.evm as unknown as { blockchain: { getBlock(n: bigint | number): Promise<Block> } }).blockchain;
  const chainBlock = blockchain.getBlock.bind(blockchain);
  blockchain.getBlock = async (n) => simulated.get(BigInt(n)) ?? chainBlock(n);
}

async function simulateBlock(
  vm: VM,
  parent: Block,
  pb: PlannedBlock,
  inherited: { coinbase: Address; gasLimit: bigint; difficulty: bigint },
  shared: { pool: { gas: bigint }; basePrecompiles: Map<string, unknown> },
  opts: SimOptions,
): Promise<SimulatedBlock> {
  const pool = shared.pool;
  const common = vm.common;
  common.setHardforkBy({ blockNumber: pb.number, timestamp: pb.time });
  const headerData: HeaderData = {
    parentHash: parent.hash(),
    number: pb.number,
    timestamp: pb.time,
    gasLimit: inherited.gasLimit,
    coinbase: inherited.coinbase,
    mixHash: pb.overrides.prevRandao ?? new Uint8Array(32),
    difficulty: inherited.difficulty,
    extraData: new Uint8Array(0),
  };
  // Without validation the base fee is 0 unless overridden: price-less calls must run.
  const baseFee = common.isActivatedEIP(1559)
    ? (pb.overrides.baseFeePerGas ?? (opts.validation ? parent.header.calcNextBaseFee() : 0n))
    : undefined;
  if (baseFee !== undefined) headerData.baseFeePerGas = baseFee;
  if (common.isActivatedEIP(4844)) {
    headerData.excessBlobGas =
      parent.header.excessBlobGas === undefined ? 0n : parent.header.calcNextExcessBlobGas(common);
  }
  if (common.isActivatedEIP(4788)) headerData.parentBeaconBlockRoot = new Uint8Array(32);

  await applySimOverrides(vm, pb.stateOverrides, shared.basePrecompiles);
  const blockOpts = { putBlockIntoBlockchain: false, common, skipConsensusFormatValidation: true };
  const builder = await buildBlock(vm, {
    parentBlock: parent,
    headerData,
    withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
    blockOpts,
  });
  const b = builder as unknown as BuilderInternals;
  const execBlock = withBlobBaseFee(createBlock({ header: { ...headerData } }, { ...blockOpts, freeze: false }), pb);
  // geth's NoBaseFee (no validation): a call priced below an overridden base fee still runs.
  const freeBlock =
    !opts.validation && (baseFee ?? 0n) !== 0n
      ? withBlobBaseFee(
          createBlock({ header: { ...headerData, baseFeePerGas: 0n } }, { ...blockOpts, freeze: false }),
          pb,
        )
      : execBlock;
  const tracer = new LogTracer(vm, opts.traceTransfers);
  tracer.attach();
  const calls: SimCallResult[] = [];
  const senders: Address[] = [];
  const txs: TypedTransaction[] = [];
  try {
    for (const req of pb.calls) {
      const from = req.from ?? ZERO_ADDRESS;
      const stateNonce = (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
      const nonce = req.nonce ?? stateNonce;
      const wanted = req.gas ?? inherited.gasLimit - b.gasUsed;
      if (b.gasUsed + wanted > inherited.gasLimit)
        throw new AshlarError(
          ErrorCodes.SIM_BLOCK_GAS_LIMIT,
          `block gas limit reached: ${b.gasUsed} >= ${inherited.gasLimit}`,
        );
      const gas = wanted < pool.gas ? wanted : pool.gas;
      // geth's state transition: with nonce checks on, a sender at 2^64-1 can send nothing more.
      if (opts.validation && stateNonce >= MAX_UINT64)
        throw new AshlarError(
          ErrorCodes.INTERNAL,
          `err: nonce has max value: address ${toChecksumAddress(from.toString())}, nonce: ${stateNonce} (supplied gas ${gas})`,
        );
      const tx = simTransaction(common, req, from, gas, nonce, common.chainId());
      const restoreCode = await allowContractSender(vm, from);
      if (!b.checkpointed) {
        await vm.evm.journal.checkpoint();
        b.checkpointed = true;
      }
      let result: RunTxResult;
      try {
        result = await runTx(vm, {
          tx,
          block: maxFee(tx) < (baseFee ?? 0n) ? freeBlock : execBlock,
          blockGasUsed: b.gasUsed,
          skipNonce: !opts.validation,
          skipHardForkValidation: true,
          skipBlockGasLimitValidation: true,
        });
      } catch (e) {
        throw simulationError(e, nonce, stateNonce);
      } finally {
        restoreCode();
      }
      await wrapSenderNonce(vm, from);
      pool.gas -= result.totalGasSpent;
      b.transactions.push(tx);
      b.transactionResults.push(result);
      b.gasUsed += result.blockGasSpent;
      b._minerValue += result.minerValue;
      if ('blobVersionedHashes' in tx)
        b.blobGasUsed += BigInt((tx as { blobVersionedHashes: unknown[] }).blobVersionedHashes.length) * GAS_PER_BLOB;
      txs.push(tx);
      senders.push(from);
      calls.push(callResult(result, tracer.take(result.execResult.exceptionError !== undefined)));
    }
  } finally {
    tracer.detach();
  }
  const built = (await withOverflowingNonces(b, () => builder.build())).block;
  // The built block re-created its transactions; keep the ones that know their sender and hash.
  const block = new Block(built.header, txs, [], built.withdrawals, { common: built.common });
  return { block, senders, calls };
}

/**
 * The `blobBaseFee` override: what the calls pay per blob gas and BLOBBASEFEE returns. The
 * block's own header (hash, excess blob gas) keeps the derived value, as in geth.
 */
function withBlobBaseFee(block: Block, pb: PlannedBlock): Block {
  const fee = pb.overrides.blobBaseFee;
  if (fee !== undefined) (block.header as { getBlobGasPrice: () => bigint }).getBlobGasPrice = () => fee;
  return block;
}

/** A 7702 delegation designator: what @ethereumjs accepts as code of a transaction's sender. */
const DELEGATION_PREFIX = Uint8Array.of(0xef, 0x01, 0x00);

/**
 * geth's simulator skips the EIP-3607 check (a sender with code may send). @ethereumjs/vm
 * always makes it, accepting only 7702-delegated senders; for a sender with other code its one
 * code read in that check is answered with a delegation designator. Only that one read: the
 * sender's real code stays in place and runs if the call reaches it.
 */
async function allowContractSender(vm: VM, sender: Address): Promise<() => void> {
  const sm = vm.stateManager;
  const code = await sm.getCode(sender);
  const delegated = code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00;
  if (code.length === 0 || delegated) return () => undefined;
  const getCode = sm.getCode;
  const restore = () => {
    sm.getCode = getCode;
  };
  sm.getCode = async (address: Address) => {
    if (!address.equals(sender)) return getCode.call(sm, address);
    restore();
    const designator = new Uint8Array(23);
    designator.set(DELEGATION_PREFIX);
    return designator;
  };
  // Also restored after runTx: a check that never came (an earlier rejection) must not leave it.
  return restore;
}

function maxFee(tx: TypedTransaction): bigint {
  return 'maxFeePerGas' in tx ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
}

function callResult(r: RunTxResult, logs: IndexedLog[]): SimCallResult {
  const failed = r.execResult.exceptionError !== undefined;
  const out: SimCallResult = {
    // A failed call returns no data (a revert's bytes go into error.data).
    returnData: failed ? new Uint8Array(0) : r.execResult.returnValue,
    logs,
    gasUsed: r.totalGasSpent,
    maxUsedGas: r.totalGasSpent + r.gasRefund,
    status: r.execResult.exceptionError ? 0 : 1,
  };
  const err = r.execResult.exceptionError;
  if (err) {
    if (err.error === 'revert') {
      const reason = decodeRevertReason(r.execResult.returnValue);
      out.error = {
        code: REVERT_CODE,
        message: reason ? `execution reverted: ${reason}` : 'execution reverted',
        data: bytesToHex(r.execResult.returnValue),
      };
    } else out.error = { code: VM_ERROR_CODE, message: err.error };
  }
  return out;
}
