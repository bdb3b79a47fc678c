import { type WithdrawalData, createAddressFromString } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import type { EventBus } from '../events/EventBus.js';
import type { Logger, ResolvedOptions } from '../kernel/options.js';
import { MempoolService } from '../mempool/MempoolService.js';
import { type AssembleResult, assembleBlock } from './assembleBlock.js';

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
  /** EIP-4895 withdrawals for the next block (ashlar_addWithdrawals). */
  pendingWithdrawals: WithdrawalData[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly chain: ChainService,
    private readonly mempool: MempoolService,
    readonly events: EventBus,
    private readonly logger: Logger,
    options: ResolvedOptions,
  ) {
    this.automine = options.mining.automine;
    this.blockTime = options.mining.blockTime;
    this.coinbase = options.chain.coinbase;
    this.gasLimit = options.chain.gasLimit;
  }

  start(): void {
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
    const now = BigInt(Math.floor(Date.now() / 1000)) + this.timeOffset;
    const min = this.chain.head.block.header.timestamp + 1n;
    return now > min ? now : min;
  }

  /** Base fee of the next block (undefined before London). */
  nextBlockBaseFee(): bigint | undefined {
    if (this.nextBaseFee !== undefined) return this.nextBaseFee;
    if (!this.chain.common.isActivatedEIP(1559)) return undefined;
    return this.chain.head.block.header.calcNextBaseFee();
  }

  /** Mines one block from the pool; call inside chain.exclusive. */
  async mineNow(opts: { timestamp?: bigint } = {}): Promise<AssembleResult> {
    const chain = this.chain;
    const timestamp = opts.timestamp ?? this.nextBlockTimestamp();
    const baseFee = this.nextBaseFee ?? this.nextBlockBaseFee();
    const sm = chain.vm.stateManager;
    const nonces = new Map<string, bigint>();
    for (const s of this.mempool.senders()) {
      const acct = await sm.getAccount(createAddressFromString(s));
      nonces.set(s, acct?.nonce ?? 0n);
    }
    const { pending } = this.mempool.partition((s) => nonces.get(s) ?? 0n);
    const ordered = MempoolService.orderForBlock(pending, baseFee ?? 0n);
    const withdrawals = this.pendingWithdrawals;
    const result = await assembleBlock(chain, {
      txs: ordered,
      timestamp,
      baseFee: this.nextBaseFee,
      coinbase: this.coinbase,
      gasLimit: this.gasLimit,
      withdrawals,
    });
    await chain.commitBlock(result.stored);
    this.pendingWithdrawals = [];
    this.nextTimestamp = undefined;
    this.nextBaseFee = undefined;
    for (const p of result.included) this.mempool.remove(p.hashHex);
    for (const d of result.dropped) {
      this.mempool.remove(d.ptx.hashHex);
      this.logger.warn(`dropped transaction ${d.ptx.hashHex}: ${d.reason}`);
    }
    return result;
  }

  mine(opts: { timestamp?: bigint } = {}): Promise<AssembleResult> {
    return this.chain.exclusive(() => this.mineNow(opts));
  }
}
