import type { EVM } from '@ethereumjs/evm';
import { Block, type HeaderData } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Blob4844Tx, type TypedTransaction } from '@ethereumjs/tx';
import {
  type Address,
  type Withdrawal,
  type WithdrawalData,
  bigIntToUnpaddedBytes,
  createAddressFromString,
  equalsBytes,
  generateAddress,
} from '@ethereumjs/util';
import { BlockBuilder, type RunTxResult, type VM } from '@ethereumjs/vm';
import { runTxLean } from '../evm/leanRunTx.js';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { keccak256 as keccak_256 } from '../chain/nativeCrypto.js';
import { RLP } from '@ethereumjs/rlp';
import { rlpLengthOfLength, writeRlpHeader } from '../util/rlpLength.js';
import type { ChainService } from '../chain/ChainService.js';
import { objectArray } from '../chain/objectArray.js';
import { storedBlock } from '../chain/storedBlock.js';
import { accountNow } from '../chain/ChainStateManager.js';
import { allowContractSender } from '../exec/contractSender.js';
import type { StoredBlock, StoredReceipt } from '../chain/types.js';
import type { PendingTx } from '../mempool/types.js';
import { CallFrameTracer } from '../trace/CallFrameTracer.js';
import type { CallFrame } from '../trace/callFrames.js';
import { startBlock } from './blockStartWrites.js';
import { execHeader } from './execHeader.js';
import { headerRlp as headerRlpOf } from './headerRaw.js';
import { nextBaseFeeOf, nextExcessBlobGasOf } from './nextBaseFee.js';
import { finalizeIdleBlock, requestsAreIdle, requestsAreIdleNow } from './finalizeBlock.js';

export interface AssembleInput {
  txs: PendingTx[];
  timestamp: bigint;
  /** Overrides the base fee the parent implies (hardhat_setNextBlockBaseFeePerGas). */
  baseFee?: bigint;
  coinbase: string;
  gasLimit: bigint;
  withdrawals?: WithdrawalData[];
  /** prevRandao (mixHash) of the block (hardhat_setPrevRandao); default: keccak of the parent's hash. */
  prevRandao?: Uint8Array;
  /**
   * Start with BlockBuilder.initState and finish through BlockBuilder.build() (tests compare them
   * with startBlock and the idle-requests path).
   */
  forceBuilderBuild?: boolean;
}

export interface AssembleResult {
  stored: StoredBlock;
  included: PendingTx[];
  /** Transactions that could not run in this block (e.g. balance spent by an earlier one). */
  dropped: { ptx: PendingTx; reason: string }[];
  /** Transactions that did not fit in the remaining gas; they stay in the pool. */
  deferred: PendingTx[];
}

/**
 * The parts of @ethereumjs/vm 10.1.3's BlockBuilder we drive directly. Its addTransaction
 * re-creates every earlier transaction of the block on each call (createBlock over the whole
 * list: quadratic; 51 tx/s at 300 txs per block here), so transactions are run with runTx
 * against one header-only block and appended to the builder's lists; system calls (EIP-4788,
 * 2935), withdrawals, requests (EIP-7685) and the final block stay the builder's.
 */
interface BuilderInternals {
  transactions: TypedTransaction[];
  transactionResults: RunTxResult[];
  gasUsed: bigint;
  _minerValue: bigint;
  checkpointed: boolean;
  withdrawals?: Withdrawal[];
}

export async function assembleBlock(chain: ChainService, input: AssembleInput): Promise<AssembleResult> {
  const vm = chain.vm;
  const parent = chain.head.block;
  const common = chain.common;
  const number = parent.header.number + 1n;
  const headerData: HeaderData = {
    parentHash: parent.hash(),
    number,
    coinbase: coinbaseAddress(input.coinbase),
    timestamp: input.timestamp,
    gasLimit: input.gasLimit,
    // prevRandao: deterministic per chain, different per block
    mixHash: input.prevRandao ?? keccak_256(parent.hash()),
  };
  if (common.isActivatedEIP(1559)) headerData.baseFeePerGas = input.baseFee ?? nextBaseFeeOf(parent.header);
  if (common.isActivatedEIP(4844)) headerData.excessBlobGas = nextExcessBlobGasOf(parent.header, common);
  if (common.isActivatedEIP(4788)) headerData.parentBeaconBlockRoot = new Uint8Array(32);

  // buildBlock(vm, opts) is this constructor and initState; startBlock does the latter's system
  // writes (EIP-4788, EIP-2935) for less (tests compare it with initState through forceBuilderBuild).
  const builder = new BlockBuilder(vm, {
    parentBlock: parent,
    headerData,
    withdrawals: common.isActivatedEIP(4895) ? (input.withdrawals ?? []) : undefined,
    // Before the merge the difficulty follows ethash's rule from the parent.
    blockOpts: {
      putBlockIntoBlockchain: false,
      common,
      setHardfork: true,
      calcDifficultyFromHeader: postMerge(common) ? undefined : parent.header,
    },
  });
  sameKindWithdrawals(builder as unknown as BuilderInternals, input.withdrawals);
  if (input.forceBuilderBuild) await builder.initState();
  else await startBlock(builder);
  try {
    return await runAndBuild(chain, builder, input, headerData, number);
  } catch (e) {
    // Nothing of a failed block may stay: neither its state changes nor its trie nodes.
    await builder.revert().catch(() => undefined);
    chain.stateDb.discard();
    // A block that failed after its state root was computed (a fork's upstream failing in the
    // block's last system calls) had its caches flushed mid-block: their checkpoint cannot restore
    // them, and they would name trie nodes just discarded. Start again from the head's root.
    const sm = vm.stateManager as MerkleStateManager;
    sm.clearCaches();
    await sm.setStateRoot(chain.headStateRoot).catch(() => undefined);
    throw e;
  }
}

/**
 * Puts the builder's withdrawals (the block's, later) in an array of objects from this module's
 * one kind (objectArray). BlockBuilder maps them from the input, and on a fresh node the array
 * that map gave changed its hidden class (packed to holey) once V8 had optimised the builder,
 * ~1,300 blocks in: every function that reads a block's withdrawals (finalizeIdleBlock,
 * blockEncoding, orderedTrieRoot, the index's blockRows, the address book) then deopted on
 * "wrong map". The same withdrawals in the same order.
 */
function sameKindWithdrawals(b: BuilderInternals, given: readonly WithdrawalData[] | undefined): void {
  if (b.withdrawals === undefined) return;
  const list = objectArray<Withdrawal>();
  // Decided on the list we gave (always of one kind): the builder's own list is not read when
  // empty, so its change of class costs this function nothing either.
  if (given !== undefined && given.length > 0) for (const w of b.withdrawals) list.push(w);
  b.withdrawals = list;
}

/** Whether the rules in force are the merge's or later, per Common and hardfork (gteHardfork walks the schedule each call). */
const mergeByCommon = new WeakMap<Common, { hardfork: string; post: boolean }>();
function postMerge(common: Common): boolean {
  const hardfork = common.hardfork();
  let known = mergeByCommon.get(common);
  if (known?.hardfork !== hardfork) {
    known = { hardfork, post: common.gteHardfork('paris') };
    mergeByCommon.set(common, known);
  }
  return known.post;
}

/** The last coinbase parsed: a chain mines to one coinbase block after block (a hex decode each, ~1.5 µs). */
let lastCoinbase: { hex: string; address: Address } | undefined;
function coinbaseAddress(hex: string): Address {
  if (lastCoinbase?.hex !== hex) lastCoinbase = { hex, address: createAddressFromString(hex) };
  return lastCoinbase.address;
}

async function runAndBuild(
  chain: ChainService,
  builder: BlockBuilder,
  input: AssembleInput,
  headerData: HeaderData,
  number: bigint,
): Promise<AssembleResult> {
  const vm = chain.vm;
  const common = chain.common;
  const b = builder as unknown as BuilderInternals;
  const execBlock = new Block(
    execHeader(common, headerData, {
      common,
      setHardfork: true,
      calcDifficultyFromHeader: postMerge(common) ? undefined : chain.head.block.header,
    }),
  );
  const baseFee = headerData.baseFeePerGas as bigint | undefined;
  const included: PendingTx[] = [];
  const dropped: AssembleResult['dropped'] = [];
  const deferred: PendingTx[] = [];
  const effectivePrices: bigint[] = [];
  // Call frames of the transactions only: the tracer is attached around this loop, so the
  // builder's system calls (before it and in build()) leave none.
  const tracer = chain.settings.callFrames && input.txs.length > 0 ? tracerOf(vm.evm as EVM) : undefined;
  const frames: (CallFrame | undefined)[] = [];
  tracer?.attach();
  try {
    const txs = input.txs;
    for (let t = 0; t < txs.length; t++) {
      const ptx = txs[t];
      const tx = ptx.tx;
      if (tx.gasLimit > input.gasLimit - b.gasUsed) {
        deferred.push(ptx);
        continue;
      }
      try {
        if (tx instanceof Blob4844Tx) {
          await builder.addTransaction(tx, { allowNoBlobs: true });
        } else {
          if (!b.checkpointed) {
            await vm.evm.journal.checkpoint();
            b.checkpointed = true;
          }
          // No EIP-3607 for senders with code (impersonated contracts, hardhat_setCode), as Hardhat.
          const contractSender = plainSender(vm, ptx.sender)
            ? NOTHING_TO_RESTORE
            : await allowContractSender(vm, ptx.sender);
          let result: RunTxResult;
          try {
            result = await runTxLean(vm, {
              tx,
              block: execBlock,
              blockGasUsed: b.gasUsed,
              skipHardForkValidation: true,
            });
          } finally {
            contractSender.restore();
          }
          b.transactions.push(tx);
          b.transactionResults.push(result);
          b.gasUsed += result.blockGasSpent;
          b._minerValue += result.minerValue;
        }
        included.push(ptx);
        effectivePrices.push(effectiveGasPrice(tx, baseFee));
        if (tracer) frames.push(tracer.take());
      } catch (e) {
        tracer?.reset();
        dropped.push({ ptx, reason: e instanceof Error ? e.message : String(e) });
      }
    }
  } finally {
    // Paused, not detached: the miner traces again next block (its listeners stay, idle).
    tracer?.pause();
  }

  const blockOpts = {
    putBlockIntoBlockchain: false,
    common,
    setHardfork: true,
    calcDifficultyFromHeader: postMerge(common) ? undefined : chain.head.block.header,
  };
  // The encodings as received; a blob transaction enters the block without its sidecar, re-encoded.
  // Lists built by loops into objectArray, not by map(): the array map() gives is packed before
  // V8 optimises this function and holey after (~230 blocks in on a fresh node), and every reader
  // of a stored block's receipts and senders optimised before that deopted on "wrong map".
  const txRaws = objectArray<Uint8Array>();
  for (let i = 0; i < b.transactions.length; i++) {
    const tx = b.transactions[i];
    txRaws.push(tx === included[i].tx && included[i].raw ? (included[i].raw as Uint8Array) : tx.serialize());
  }
  const block =
    !input.forceBuilderBuild &&
    postMerge(common) &&
    (requestsAreIdleNow(vm, common, b.transactionResults) ?? (await requestsAreIdle(vm, common, b.transactionResults)))
      ? await finalizeIdleBlock(vm, builder, headerData as Record<string, unknown>, blockOpts, txRaws, execBlock.header)
      : (await builder.build()).block;
  const receipts = await storedReceipts(b.transactionResults, block, included, effectivePrices);
  const senders = objectArray<Address>();
  for (let i = 0; i < included.length; i++) senders.push(included[i].sender);
  const { rlp, hash } = blockEncoding(block, txRaws);
  const parentRoot = chain.head.block.header.stateRoot;
  const stored = storedBlock({
    block,
    number,
    hash,
    senders,
    receipts,
    totalDifficulty: chain.head.totalDifficulty + block.header.difficulty,
    size: rlp.length,
    rlp,
    callFrames: chain.settings.callFrames ? frames : undefined,
    preStateRoot: equalsBytes(chain.headStateRoot, parentRoot) ? undefined : chain.headStateRoot,
  });
  return { stored, included, dropped, deferred };
}

/** What allowContractSender gives back for a sender without code. */
const NOTHING_TO_RESTORE = { restore: (): void => undefined };

/**
 * Whether the sender's account is cached and has no code (or does not exist): then
 * allowContractSender has nothing to allow, and its async call (a promise and an await per
 * transaction) is skipped. A sender not cached goes through it, which reads the account.
 */
function plainSender(vm: VM, sender: Address): boolean {
  const account = accountNow(vm.stateManager, sender);
  return account === null || (account !== undefined && !account.isContract());
}

/**
 * The block's receipts as stored, in a function V8 does not inline into runAndBuild: a fresh
 * node's first contract creation reached toStoredReceipt's creation branch (contractAddress) with
 * no feedback for it, and inlined there it threw runAndBuild away to compile it again (~40-170 ms
 * of TurboFan); now only this one recompiles. V8 inlines an async function only when it never
 * suspends: the `await` (one microtask, <1 µs a block) is what keeps this one out.
 */
async function storedReceipts(
  results: readonly RunTxResult[],
  block: Block,
  included: readonly PendingTx[],
  effectivePrices: readonly bigint[],
): Promise<StoredReceipt[]> {
  await undefined;
  const receipts = objectArray<StoredReceipt>();
  for (let i = 0; i < results.length; i++)
    receipts.push(toStoredReceipt(results[i], block.transactions[i], included[i].sender, effectivePrices[i]));
  return receipts;
}

/**
 * block.serialize() and block.hash() from one encoding of the header (each made its own), with
 * every transaction's encoding taken as given instead of re-made: a typed one as a byte string, a
 * legacy one as the RLP list it is (tx.raw() converted every field again). The hash is cached on
 * the frozen header, where @ethereumjs keeps the one it computes. The block's list is written
 * into one buffer with its length headers: lists of lists built by concatenation cost a copy
 * of the transactions per level and a few µs of small arrays per block.
 */
function blockEncoding(block: Block, txRaws: readonly Uint8Array[]): { rlp: Uint8Array; hash: Uint8Array } {
  const header = block.header;
  const headerRlp = headerRlpOf(header);
  const h = header as unknown as { cache?: { hash?: Uint8Array }; keccakFunction?: (b: Uint8Array) => Uint8Array };
  let hash: Uint8Array;
  if (Object.isFrozen(header) && h.cache && h.keccakFunction) {
    h.cache.hash ??= h.keccakFunction(headerRlp);
    hash = h.cache.hash;
  } else hash = header.hash();
  const txs = block.transactions;
  // A legacy transaction is an RLP list already; a typed one goes in as a byte string.
  let txsPayload = 0;
  for (let i = 0; i < txs.length; i++) {
    const n = txRaws[i].length;
    txsPayload += txs[i].type === 0 ? n : n + rlpHeaderSize(n);
  }
  // Empty lists (every block's uncles, a dev block's withdrawals) are 0xc0: no list built and encoded for them.
  const uncles = block.uncleHeaders.length === 0 ? EMPTY_LIST : RLP.encode(block.uncleHeaders.map((uh) => uh.raw()));
  const w = block.withdrawals;
  const withdrawals = w === undefined ? undefined : w.length === 0 ? EMPTY_LIST : RLP.encode(w.map((x) => x.raw()));
  const payload =
    headerRlp.length + rlpHeaderSize(txsPayload) + txsPayload + uncles.length + (withdrawals ? withdrawals.length : 0);
  const out = new Uint8Array(rlpHeaderSize(payload) + payload);
  let o = writeRlpHeader(out, 0, payload, 0xc0, 0xf7);
  out.set(headerRlp, o);
  o += headerRlp.length;
  o = writeRlpHeader(out, o, txsPayload, 0xc0, 0xf7);
  for (let i = 0; i < txs.length; i++) {
    const raw = txRaws[i];
    if (txs[i].type !== 0) o = writeRlpHeader(out, o, raw.length, 0x80, 0xb7);
    out.set(raw, o);
    o += raw.length;
  }
  out.set(uncles, o);
  o += uncles.length;
  if (withdrawals) out.set(withdrawals, o);
  return { rlp: out, hash };
}

/** RLP of an empty list (only ever copied from). */
const EMPTY_LIST = Uint8Array.of(0xc0);

/** Bytes of the RLP length header of an item of `n` payload bytes (a typed transaction is never one byte below 0x80). */
function rlpHeaderSize(n: number): number {
  return n < 56 ? 1 : 1 + rlpLengthOfLength(n);
}

/** One call-frame tracer per EVM, reused block after block (with its wrapped opcode table). */
const tracers = new WeakMap<EVM, CallFrameTracer>();
function tracerOf(evm: EVM): CallFrameTracer {
  let t = tracers.get(evm);
  if (!t) {
    t = new CallFrameTracer(evm);
    tracers.set(evm, t);
  }
  return t;
}

export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if ('maxFeePerGas' in tx) {
    const t = tx as unknown as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    const bf = baseFee ?? 0n;
    const p = bf + t.maxPriorityFeePerGas;
    return p < t.maxFeePerGas ? p : t.maxFeePerGas;
  }
  return (tx as unknown as { gasPrice: bigint }).gasPrice;
}

export function toStoredReceipt(r: RunTxResult, tx: TypedTransaction, sender: Address, price: bigint): StoredReceipt {
  const rc = r.receipt as RunTxResult['receipt'] & {
    status?: 0 | 1;
    stateRoot?: Uint8Array;
    blobGasUsed?: bigint;
    blobGasPrice?: bigint;
  };
  const err = r.execResult.exceptionError;
  // Every field in one literal, in one order, the absent ones undefined: one hidden class for
  // every receipt. Added when present, a creation's (contractAddress) or a failure's (error)
  // made another, and every reader of a block's receipts optimised on transfers' (the block's
  // store ops, its encoding, the explorer index) threw its code away at a fresh node's first
  // contract deployment. Likewise the logs list: an empty one is the EVM's literal, an array of
  // small integers to V8, a token transfer's an array of objects; the empty one is replaced by
  // an array of the latter kind (objectArray).
  const out: StoredReceipt = {
    status: rc.status,
    root: rc.status === undefined ? rc.stateRoot : undefined,
    cumulativeGasUsed: rc.cumulativeBlockGasUsed,
    gasUsed: r.totalGasSpent,
    logs: rc.logs.length === 0 ? objectArray<StoredReceipt['logs'][number]>() : (rc.logs as StoredReceipt['logs']),
    bloom: rc.bitvector,
    // As geth: a creation names its address even when it failed.
    contractAddress:
      tx.to === undefined
        ? (r.createdAddress?.bytes ?? generateAddress(sender.bytes, bigIntToUnpaddedBytes(tx.nonce)))
        : undefined,
    effectiveGasPrice: price,
    blobGasUsed: rc.blobGasUsed,
    blobGasPrice: rc.blobGasPrice,
    error: err ? err.error : undefined,
    returnData: err && r.execResult.returnValue.length > 0 ? r.execResult.returnValue : undefined,
  };
  return out;
}
