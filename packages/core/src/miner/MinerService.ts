import type { HeaderData } from '@ethereumjs/block';
import { type Address, type WithdrawalData, createAddressFromString, equalsBytes, hexToBytes } from '@ethereumjs/util';
import { keccak256 as keccak_256 } from '../chain/nativeCrypto.js';
import type { ChainService } from '../chain/ChainService.js';
import { accountNow, codeNow } from '../chain/ChainStateManager.js';
import type { EventBus } from '../events/EventBus.js';
import { MempoolService } from '../mempool/MempoolService.js';
import type { PendingTx } from '../mempool/types.js';
import { type AssembleResult, assembleBlock } from './assembleBlock.js';
import { nextBaseFeeOf, nextExcessBlobGasOf } from './nextBaseFee.js';
import { TxConsoleCapture, primeTxConsoleCapture } from '../console/ConsoleCapture.js';
import { CONSOLE_ADDRESS } from '../console/decodeConsole.js';
import type { Logger } from '../util/logger.js';
import type { MinerSettings } from './MinerSettings.js';

export type { MinerSettings };

/**
 * Decides when blocks are made and what goes in them: automine (a block per accepted
 * transaction, before the RPC call returns), interval mining, or only on request (evm_mine).
 * Also owns block time: offsets (evm_increaseTime) and a fixed next timestamp.
 */
export class MinerService {
  automine: boolean;
  blockTime: number;
  coinbase: string;
  gasLimit: bigint;
  minGasPrice = 0n;
  /** Seconds added to wall-clock time (evm_increaseTime). */
  timeOffset = 0n;
  nextTimestamp?: bigint;
  nextBaseFee?: bigint;
  /** Each block's timestamp = its parent's + this (anvil_setBlockTimestampInterval); undefined: the clock. */
  timestampInterval?: bigint;
  /** prevRandao (mixHash) of the next block only (hardhat_setPrevRandao). */
  nextPrevRandao?: Uint8Array;
  /** EIP-4895 withdrawals for the next block (ashlar_addWithdrawals). */
  pendingWithdrawals: WithdrawalData[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly chain: ChainService,
    private readonly mempool: MempoolService,
    readonly events: EventBus,
    private readonly logger: Logger,
    settings: MinerSettings,
  ) {
    this.automine = settings.automine;
    this.blockTime = settings.blockTime;
    this.coinbase = settings.coinbase;
    this.gasLimit = settings.gasLimit;
  }

  start(): void {
    // Before the first block: the console capture's attaching branch, first taken by a fresh
    // node's first contract block, gets its feedback on the chain's own VM (events left as they were).
    primeTxConsoleCapture(this.chain.vm);
    this.setInterval(this.blockTime);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Interval mining every `seconds` (0 turns it off). */
  setInterval(seconds: number): void {
    this.stop();
    this.blockTime = seconds;
    if (seconds > 0) {
      this.timer = setInterval(() => {
        this.mine().catch((e) => this.logger.error(`interval mining failed: ${e instanceof Error ? e.message : e}`));
      }, seconds * 1000);
      this.timer.unref();
    }
  }

  /** Timestamp the next block gets: strictly after its parent. */
  nextBlockTimestamp(): bigint {
    if (this.nextTimestamp !== undefined) return this.nextTimestamp;
    const parent = this.chain.head.block.header.timestamp;
    const min = parent + 1n;
    if (this.timestampInterval !== undefined) {
      const t = parent + this.timestampInterval;
      return t > min ? t : min;
    }
    const now = nowSeconds() + this.timeOffset;
    return now > min ? now : min;
  }

  /** prevRandao of the next block: the one set for it, else derived from the parent's hash. */
  nextBlockPrevRandao(): Uint8Array {
    return this.nextPrevRandao ?? keccak_256(this.chain.head.block.hash());
  }

  /**
   * The header fields of the block that would be mined now ("pending"): what eth_call and
   * eth_estimateGas at `pending` run under, as Hardhat's node does.
   */
  pendingHeader(): HeaderData {
    const chain = this.chain;
    const parent = chain.head.block.header;
    const header: HeaderData = {
      parentHash: chain.head.block.hash(),
      number: parent.number + 1n,
      coinbase: createAddressFromString(this.coinbase),
      timestamp: this.nextBlockTimestamp(),
      gasLimit: this.gasLimit,
      mixHash: this.nextBlockPrevRandao(),
      difficulty: parent.difficulty,
    };
    const baseFee = this.nextBlockBaseFee();
    if (baseFee !== undefined) header.baseFeePerGas = baseFee;
    if (chain.common.isActivatedEIP(4844)) header.excessBlobGas = nextExcessBlobGasOf(parent, chain.common);
    if (chain.common.isActivatedEIP(4788)) header.parentBeaconBlockRoot = new Uint8Array(32);
    return header;
  }

  /** Base fee of the next block (undefined before London). */
  nextBlockBaseFee(): bigint | undefined {
    if (this.nextBaseFee !== undefined) return this.nextBaseFee;
    if (!this.chain.common.isActivatedEIP(1559)) return undefined;
    return nextBaseFeeOf(this.chain.head.block.header);
  }

  /**
   * The pool's executable transactions in the order the next block takes them (per sender by
   * nonce, across senders by tip). Call inside chain.exclusive: nonces come from the head state.
   */
  async executableTxs(): Promise<PendingTx[]> {
    const now = this.executableTxsNow();
    if (now !== undefined) return now;
    if (this.mempool.size === 0) return [];
    const baseFee = this.nextBaseFee ?? this.nextBlockBaseFee();
    const sm = this.chain.vm.stateManager;
    const nonces = new Map<string, bigint>();
    for (const s of this.mempool.senders()) {
      const acct = await sm.getAccount(this.senderAddress(s));
      nonces.set(s, acct?.nonce ?? 0n);
    }
    const { pending } = this.mempool.partition((s) => nonces.get(s) ?? 0n);
    return MempoolService.orderForBlock(pending, baseFee ?? 0n);
  }

  /**
   * executableTxs without a promise, when every sender's account is in the cache (the automine
   * path: the one sender was just validated); undefined when one has to be read.
   */
  executableTxsNow(): PendingTx[] | undefined {
    if (this.mempool.size === 0) return [];
    const sm = this.chain.vm.stateManager;
    const nonces = new Map<string, bigint>();
    for (const s of this.mempool.senders()) {
      const acct = accountNow(sm, this.senderAddress(s));
      if (acct === undefined) return undefined;
      nonces.set(s, acct?.nonce ?? 0n);
    }
    const baseFee = this.nextBaseFee ?? this.nextBlockBaseFee();
    const { pending } = this.mempool.partition((s) => nonces.get(s) ?? 0n);
    return MempoolService.orderForBlock(pending, baseFee ?? 0n);
  }

  /** Parsed sender addresses: the same few senders every block (parsing one is a hex decode, ~1.5 µs). */
  private readonly senderAddresses = new Map<string, Address>();

  private senderAddress(hex: string): Address {
    let a = this.senderAddresses.get(hex);
    if (!a) {
      if (this.senderAddresses.size >= 1_024) this.senderAddresses.clear();
      a = createAddressFromString(hex);
      this.senderAddresses.set(hex, a);
    }
    return a;
  }

  /** Mines one block from the pool; call inside chain.exclusive. */
  async mineNow(opts: { timestamp?: bigint } = {}): Promise<AssembleResult> {
    const chain = this.chain;
    // As Hardhat: a block whose time was chosen (a timestamp given or set, an interval) moves
    // the clock to it, so later blocks continue from there (evm_increaseTime adds to that).
    const chosenTime =
      opts.timestamp !== undefined || this.nextTimestamp !== undefined || this.timestampInterval !== undefined;
    const timestamp = opts.timestamp ?? this.nextBlockTimestamp();
    const ordered = this.executableTxsNow() ?? (await this.executableTxs());
    const withdrawals = this.pendingWithdrawals;
    const mayConsole = mayCallConsoleNow(chain, ordered) ?? (await mayCallConsole(chain, ordered));
    const result = await this.assembleAndCommit(ordered, timestamp, withdrawals, mayConsole);
    this.pendingWithdrawals = [];
    this.nextTimestamp = undefined;
    this.nextBaseFee = undefined;
    this.nextPrevRandao = undefined;
    if (chosenTime) this.timeOffset = timestamp - nowSeconds();
    const included = result.included;
    for (let i = 0; i < included.length; i++) this.mempool.remove(included[i].hashHex);
    if (result.dropped.length > 0) this.forgetDropped(result.dropped);
    return result;
  }

  /**
   * The block of `ordered` assembled and committed, with the console.sol lines of its
   * transactions captured when they may make any (`mayConsole`) and sent once it is the head.
   * Its own async function, called the same way for every block: a fresh node mines value
   * transfers (no capture) before it mines contract calls (a capture per block), and inlined in
   * mineNow the capture's branches, first taken by the first contract block, threw mineNow's
   * optimised code away. This one is compiled on its own (its bytecode is over V8's limit for
   * inlining, 460 bytes), so only it is redone.
   */
  private async assembleAndCommit(
    ordered: PendingTx[],
    timestamp: bigint,
    withdrawals: WithdrawalData[],
    mayConsole: boolean,
  ): Promise<AssembleResult> {
    const chain = this.chain;
    // console.sol lines of each transaction (console/ConsoleCapture.ts), sent once the block is the head.
    // The same calls for every block (see TxConsoleCapture.forBlock): the idle capture when it cannot print.
    const consoleLines = TxConsoleCapture.forBlock(chain.vm, mayConsole);
    let result: AssembleResult;
    try {
      result = await assembleBlock(chain, {
        txs: ordered,
        timestamp,
        baseFee: this.nextBaseFee,
        coinbase: this.coinbase,
        gasLimit: this.gasLimit,
        withdrawals,
        prevRandao: this.nextBlockPrevRandao(),
      });
    } finally {
      consoleLines.detach();
    }
    await chain.commitBlock(result.stored);
    if (consoleLines.byTx.size > 0) {
      for (const p of result.included) {
        for (const line of consoleLines.byTx.get(p.tx) ?? [])
          this.events.emit('console', { ...line, txHash: p.hashHex });
      }
    }
    return result;
  }

  /** Takes the transactions a block could not run out of the pool, with a warning each. */
  private forgetDropped(dropped: AssembleResult['dropped']): void {
    for (const d of dropped) {
      this.mempool.remove(d.ptx.hashHex);
      this.logger.warn(`dropped transaction ${d.ptx.hashHex}: ${d.reason}`);
    }
  }

  mine(opts: { timestamp?: bigint } = {}): Promise<AssembleResult> {
    return this.chain.exclusive(() => this.mineNow(opts));
  }
}

const CONSOLE_BYTES = hexToBytes(CONSOLE_ADDRESS);

/**
 * Whether any of `txs` can make a console.sol call: one that runs code (a creation, a call to an
 * account with code, an EIP-7702 transaction, which may give its target code first) or is sent
 * to the console address itself. A block of plain value transfers cannot, and is mined without
 * the capture's five event listeners added and removed (~5 us a block). Code is read from the
 * head state (cached; runTx reads the same); a read that fails counts as code.
 */
/** mayCallConsole answered from the code cache without a promise; undefined when some code is not cached. */
function mayCallConsoleNow(chain: ChainService, txs: readonly PendingTx[]): boolean | undefined {
  const sm = chain.vm.stateManager;
  // An index loop: a `return` out of for-of closes the iterator (a read of its `return`), which
  // a fresh node first did at its first contract block, deoptimising mineNow.
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i].tx;
    const to = tx.to;
    if (to === undefined || tx.type === 4 || equalsBytes(to.bytes, CONSOLE_BYTES)) return true;
    const code = codeNow(sm, to);
    if (code === undefined) return undefined;
    if (code.length > 0) return true;
  }
  return false;
}

async function mayCallConsole(chain: ChainService, txs: readonly PendingTx[]): Promise<boolean> {
  const sm = chain.vm.stateManager;
  for (const { tx } of txs) {
    const to = tx.to;
    if (to === undefined || tx.type === 4 || equalsBytes(to.bytes, CONSOLE_BYTES)) return true;
    try {
      if ((await sm.getCode(to)).length > 0) return true;
    } catch {
      return true;
    }
  }
  return false;
}

function nowSeconds(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}
