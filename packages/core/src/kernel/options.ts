import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { DEFAULT_MNEMONIC } from '../chain/accounts.js';
import type { ChainSettings } from '../chain/ChainSettings.js';
import { DEFAULT_HARDFORK, SUPPORTED_HARDFORKS } from '../chain/chainCommon.js';
import { type GethGenesisJson, gethChainId, gethNumber } from '../chain/gethGenesis.js';
import type { MinerSettings } from '../miner/MinerSettings.js';
import { type ForkOptions, type ResolvedForkOptions, resolveForkOptions } from '../fork/forkOptions.js';

export type { Logger } from '../util/logger.js';
export { silentLogger } from '../util/logger.js';

export interface ChainOptions {
  /** Chain id (default 31337, as Hardhat and Anvil). */
  chainId?: number | bigint;
  /** Hardfork (default: the newest mainnet fork @ethereumjs/common schedules). */
  hardfork?: string;
  /** Mnemonic of the dev accounts. */
  mnemonic?: string;
  /** Number of dev accounts (default 20). */
  accounts?: number;
  /** Balance of each dev account in wei (default 10000 ETH). */
  balance?: bigint;
  /** Block gas limit (default 30,000,000). */
  gasLimit?: bigint;
  /** Base fee of the genesis block in wei (default 1 gwei). */
  baseFee?: bigint;
  /** Block beneficiary (default 0xc014ba5e…, as Hardhat). */
  coinbase?: string;
  /** Genesis timestamp in seconds (default: now). */
  genesisTimestamp?: number;
  /**
   * A parsed geth-format genesis.json: its chain id, fork schedule, allocation and genesis header
   * replace the dev genesis (chainId, hardfork, balance and genesisTimestamp are then not used;
   * the dev accounts are derived but not funded).
   */
  genesis?: GethGenesisJson;
  /**
   * Keep the call frames of every mined transaction (internal transactions, raw traces) with its
   * block (default true). Off, mining pays nothing for them and readers replay the block instead.
   */
  callFrames?: boolean;
}

export interface MiningOptions {
  /** Mine a block for every accepted transaction (default true). */
  automine?: boolean;
  /** Seconds between interval-mined blocks; 0 or absent for none. */
  blockTime?: number;
}

export interface RpcLimits {
  /** Most requests in one JSON-RPC batch (default 1000). */
  maxBatchSize?: number;
  /** Widest `eth_getLogs` block range (default 10,000 blocks). */
  logsMaxBlockRange?: number;
  /** Most logs one `eth_getLogs` returns (default 10,000). */
  logsMaxResults?: number;
  /** Gas cap of `eth_call` / `eth_estimateGas` (default 50,000,000). */
  callGasCap?: bigint;
  /** Wall-clock limit of one `eth_call` / `eth_estimateGas` in ms, 0 for none (default 5000, as geth's `--rpc.evmtimeout`). */
  callTimeoutMs?: number;
  /**
   * Most bytes of JSON a batch answers (geth's `--rpc.batch-response-max-size`), and most bytes
   * of struct logs one trace builds; 0 for none (default 25,000,000, as geth).
   */
  maxResponseBytes?: number;
  /** Cost units one batch may spend: traces, dumps, wide logs and big proofs count more (default 10,000; 0 for none). */
  batchCostBudget?: number;
  /** Most storage keys one `eth_getProof` takes (default 1,000). */
  maxProofKeys?: number;
}

/**
 * The kernel's settings: what resolveOptions checks and fills. KernelOptions (KernelOptions.ts)
 * adds what is not a setting (storage, plugins, logger), so this module imports no plugin type.
 */
export interface KernelSettings {
  chain?: ChainOptions;
  mining?: MiningOptions;
  rpc?: RpcLimits;
  /**
   * `web3_clientVersion` (default `HardhatNetwork/2.29.1/ashlar/<version>`: the name test helpers
   * look for, see docs/dev-methods.md "Identity").
   */
  clientVersion?: string;
  /**
   * Defaults `eth_sendTransaction` fills in for fields a request leaves out (default `'spec'`,
   * see {@link SendDefaults}).
   */
  sendDefaults?: SendDefaults;
  /**
   * Under automine, a transaction that is mined but fails makes its send answer an error carrying
   * the hash and the revert data, as Hardhat's node does (default true). False: the send answers
   * only the hash, as Anvil's does.
   */
  throwOnTransactionFailures?: boolean;
  /**
   * Also send the console.sol lines of eth_estimateGas as `console` events (default false: only
   * mined transactions and eth_call send them; the CLI turns this on with --verbose).
   */
  consoleInEstimates?: boolean;
  /**
   * Fork another chain (docs/forking.md): the chain starts at the upstream's block N and reads
   * the state it does not hold from there. The chain id is the upstream's unless chain.chainId is given.
   */
  fork?: ForkOptions;
}

/**
 * What eth_sendTransaction fills in when a request has no gas or fee fields.
 * - `'spec'` — the interface spec §8: legacy, gasPrice 10,000 gwei, gas 90,000 (or the estimate
 *   when the transaction needs more).
 * - `'hardhat'` — Hardhat's node: EIP-1559 (legacy before London), maxPriorityFeePerGas 1 gwei,
 *   maxFeePerGas = 2 × the next block's base fee + the tip, gas = the block gas limit (capped
 *   by EIP-7825), so nothing runs before the transaction is mined.
 */
export type SendDefaults = 'spec' | 'hardhat';
export const SEND_DEFAULTS: readonly SendDefaults[] = ['spec', 'hardhat'];

/** The version of Hardhat whose node Ashlar answers as (web3_clientVersion, hardhat_metadata). */
export const HARDHAT_API_VERSION = '2.29.1';

export interface ResolvedOptions {
  /** ChainService's slice (ChainOptions with defaults). */
  chain: ChainSettings;
  mining: Required<MiningOptions>;
  rpc: Required<RpcLimits>;
  clientVersion: string;
  sendDefaults: SendDefaults;
  throwOnTransactionFailures: boolean;
  fork?: ResolvedForkOptions;
}

export const VERSION = '0.1.0';

/**
 * `HardhatNetwork/<Hardhat version>/ashlar/<version>`: hardhat-network-helpers 1.x accept a
 * version that starts with `hardhatnetwork` (lowercased), Hardhat 3's with `hardhat`, and
 * OpenZeppelin's upgrades plugin takes the part before the first `/` as the node's name.
 */
export function defaultClientVersion(): string {
  return `HardhatNetwork/${HARDHAT_API_VERSION}/ashlar/${VERSION}`;
}

/** What the node runs on, for hardhat_metadata / anvil_metadata's engine field. */
export function engineVersion(): string {
  return `ashlar/${VERSION}/${process.platform}-${process.arch}/node${process.versions.node}`;
}

function fail(message: string): never {
  throw new AshlarError(ErrorCodes.OPTIONS, message);
}

/** The miner's slice: the mining mode, and the coinbase and gas limit its blocks start with. */
export function minerSettingsOf(o: ResolvedOptions): MinerSettings {
  return {
    automine: o.mining.automine,
    blockTime: o.mining.blockTime,
    coinbase: o.chain.coinbase,
    gasLimit: o.chain.gasLimit,
  };
}

/** Fills defaults and rejects impossible options with a message naming the option. */
export function resolveOptions(o: KernelSettings): ResolvedOptions {
  const c = o.chain ?? {};
  const chainId = c.genesis ? gethChainId(c.genesis) : BigInt(c.chainId ?? 31337);
  if (c.genesis && c.chainId !== undefined && BigInt(c.chainId) !== chainId)
    fail(`chain.chainId ${c.chainId} differs from chain.genesis' chain id ${chainId}`);
  if (chainId <= 0n) fail(`chain.chainId must be a positive integer, got ${c.chainId}`);
  const hardfork = c.hardfork ?? DEFAULT_HARDFORK;
  if (!SUPPORTED_HARDFORKS.includes(hardfork)) {
    fail(`chain.hardfork "${hardfork}" is not supported; use one of ${SUPPORTED_HARDFORKS.join(', ')}`);
  }
  const accounts = c.accounts ?? 20;
  if (!Number.isInteger(accounts) || accounts < 0 || accounts > 10_000)
    fail(`chain.accounts must be an integer from 0 to 10000, got ${accounts}`);
  const balance = c.balance ?? 10_000n * 10n ** 18n;
  if (balance < 0n) fail('chain.balance must not be negative');
  // A geth genesis keeps its own block gas limit for the blocks mined on it.
  const gasLimit = c.gasLimit ?? (c.genesis ? gethNumber(c.genesis.gasLimit, 'gasLimit') : 30_000_000n);
  if (gasLimit < 21_000n) fail(`chain.gasLimit must be at least 21000, got ${gasLimit}`);
  const baseFee = c.baseFee ?? 1_000_000_000n;
  if (baseFee < 0n) fail('chain.baseFee must not be negative');
  const coinbase = (c.coinbase ?? '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e').toLowerCase();
  if (!/^0x[0-9a-f]{40}$/.test(coinbase)) fail(`chain.coinbase must be a 20-byte hex address, got ${c.coinbase}`);
  const m = o.mining ?? {};
  const blockTime = m.blockTime ?? 0;
  if (!(blockTime >= 0)) fail(`mining.blockTime must be a non-negative number of seconds, got ${m.blockTime}`);
  const sendDefaults = o.sendDefaults ?? 'spec';
  if (!SEND_DEFAULTS.includes(sendDefaults))
    fail(`sendDefaults must be one of ${SEND_DEFAULTS.join(', ')}, got ${String(o.sendDefaults)}`);
  if (o.clientVersion !== undefined && (typeof o.clientVersion !== 'string' || o.clientVersion.trim() === ''))
    fail('clientVersion must be a non-empty string');
  const r = o.rpc ?? {};
  const callTimeoutMs = r.callTimeoutMs ?? 5_000;
  if (!Number.isSafeInteger(callTimeoutMs) || callTimeoutMs < 0)
    fail(`rpc.callTimeoutMs must be a non-negative integer number of ms, got ${r.callTimeoutMs}`);
  const count = (name: 'maxResponseBytes' | 'batchCostBudget' | 'maxProofKeys', fallback: number, min: number) => {
    const v = r[name] ?? fallback;
    if (!Number.isSafeInteger(v) || v < min) fail(`rpc.${name} must be an integer of at least ${min}, got ${r[name]}`);
    return v;
  };
  return {
    chain: {
      chainId,
      hardfork,
      mnemonic: c.mnemonic ?? DEFAULT_MNEMONIC,
      accounts,
      balance,
      gasLimit,
      baseFee,
      coinbase,
      callFrames: c.callFrames ?? true,
      genesisTimestamp: c.genesisTimestamp,
      ...(c.genesis ? { genesis: c.genesis } : {}),
    },
    mining: { automine: m.automine ?? true, blockTime },
    rpc: {
      maxBatchSize: r.maxBatchSize ?? 1000,
      logsMaxBlockRange: r.logsMaxBlockRange ?? 10_000,
      logsMaxResults: r.logsMaxResults ?? 10_000,
      callGasCap: r.callGasCap ?? 50_000_000n,
      callTimeoutMs,
      maxResponseBytes: count('maxResponseBytes', 25_000_000, 0),
      batchCostBudget: count('batchCostBudget', 10_000, 0),
      maxProofKeys: count('maxProofKeys', 1_000, 1),
    },
    clientVersion: o.clientVersion ?? defaultClientVersion(),
    sendDefaults,
    throwOnTransactionFailures: o.throwOnTransactionFailures ?? true,
    ...(o.fork !== undefined ? { fork: resolveFork(o) } : {}),
  };
}

/** The fork options; a fork starts from the upstream's block, so it cannot also load a genesis file. */
function resolveFork(o: KernelSettings): ResolvedForkOptions {
  if (o.chain?.genesis) fail('fork and chain.genesis cannot be used together: a fork starts from the upstream block');
  return resolveForkOptions(o.fork as ForkOptions, o.chain?.chainId !== undefined, o.chain?.gasLimit !== undefined);
}
