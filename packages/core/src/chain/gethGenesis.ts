// A chain defined by a geth-format genesis.json (`geth init` input): its fork schedule, its
// allocation and its genesis header, so that blocks another client produced import unchanged.
import { type Block, createBlock } from '@ethereumjs/block';
import { type ChainConfig, Common, type GethGenesis, parseGethGenesis } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { withMemoizedParams } from './chainCommon.js';
import { lazyKzg } from './kzg.js';
import { nativeCrypto } from './nativeCrypto.js';

/** A number as geth writes it in genesis files: hex string, decimal string or JSON number. */
export type GethNumber = string | number;

export interface GethGenesisAccount {
  balance?: GethNumber;
  nonce?: GethNumber;
  code?: string;
  storage?: Record<string, string>;
}

/** The parsed JSON of a geth genesis file; unknown keys are kept and ignored. */
export interface GethGenesisJson {
  /** Chain id and fork schedule (`homesteadBlock`, `shanghaiTime`, `blobSchedule`, …). */
  config: { chainId: number | string; [key: string]: unknown };
  alloc: Record<string, GethGenesisAccount>;
  nonce?: GethNumber;
  timestamp?: GethNumber;
  extraData?: string;
  gasLimit: GethNumber;
  difficulty?: GethNumber;
  mixHash?: string;
  coinbase?: string;
  baseFeePerGas?: GethNumber | null;
  excessBlobGas?: GethNumber | null;
  blobGasUsed?: GethNumber | null;
  [key: string]: unknown;
}

/** geth's params.InitialBaseFee: the base fee of a genesis that is already London. */
const INITIAL_BASE_FEE = 1_000_000_000n;
/** EIP-4844 blob gas per blob. */
const BLOB_GAS_PER_BLOB = 131072;

function bad(message: string): never {
  throw new AshlarError(ErrorCodes.OPTIONS, `chain.genesis: ${message}`);
}

/** A geth genesis number (hex `0x…`, decimal string or JSON number) as a bigint. */
export function gethNumber(v: GethNumber | null | undefined, field: string, fallback = 0n): bigint {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) bad(`${field} must be a non-negative integer, got ${v}`);
    return BigInt(v);
  }
  const s = v.trim();
  if (/^0x[0-9a-f]*$/i.test(s)) return s.length === 2 ? 0n : BigInt(s);
  if (/^[0-9]+$/.test(s)) return BigInt(s);
  bad(`${field} is not a number: ${JSON.stringify(v)}`);
}

const bytesOf = (hex: string | undefined, field: string): Uint8Array => {
  if (hex === undefined || hex === '') return new Uint8Array(0);
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (!/^[0-9a-f]*$/i.test(h)) bad(`${field} is not hex: ${JSON.stringify(hex)}`);
  return hexToBytes(`0x${h.length % 2 ? `0${h}` : h}`);
};

/** The chain id a genesis declares. */
export function gethChainId(g: GethGenesisJson): bigint {
  if (g.config === undefined || g.config === null || typeof g.config !== 'object') bad('"config" is missing');
  const id = gethNumber(g.config.chainId as GethNumber, 'config.chainId');
  if (id <= 0n) bad('config.chainId must be positive');
  return id;
}

/**
 * The Common of a geth genesis: chain id, block- and time-based forks, blob schedule. The merge
 * sits at `mergeNetsplitBlock` (as @ethereumjs/common places Paris when no merge block is given),
 * which is where a TTD-based chain's first proof-of-stake block is.
 */
export function createGethCommon(g: GethGenesisJson): Common {
  gethChainId(g);
  let common: Common;
  try {
    // @ethereumjs/common parses nonce/timestamp as strings and the config with numbers.
    const normalized = {
      ...g,
      nonce: `0x${gethNumber(g.nonce, 'nonce').toString(16)}`,
      timestamp: `0x${gethNumber(g.timestamp, 'timestamp').toString(16)}`,
      gasLimit: `0x${gethNumber(g.gasLimit, 'gasLimit').toString(16)}`,
      difficulty: `0x${gethNumber(g.difficulty, 'difficulty').toString(16)}`,
      config: { ...g.config, chainId: Number(gethChainId(g)) },
    };
    // What createCommonFromGethGenesis does, plus the blob-schedule fix below.
    const params = parseGethGenesis(normalized as unknown as GethGenesis, 'geth-genesis');
    keepBpoBlobParams(params as unknown as ParsedChain);
    common = new Common({
      chain: params as unknown as ChainConfig,
      hardfork: params.hardfork,
      // @ethereumjs/tx decodes no blob transaction without a KZG object; it loads on first use (kzg.ts).
      customCrypto: { ...nativeCrypto, kzg: lazyKzg },
    });
  } catch (e) {
    if (e instanceof AshlarError) throw e;
    bad(e instanceof Error ? e.message : String(e));
  }
  return withMemoizedParams(common);
}

interface ParsedChain {
  customHardforks?: Record<string, { params?: Record<string, unknown> }>;
}

/**
 * @ethereumjs/common 10.1.3 turns a genesis' `blobSchedule` into `targetBlobGasPerBlock` /
 * `maxBlobGasPerBlock` params for every fork, but from BPO1 on its getBlobGasSchedule reads
 * `target` / `max` (blob counts), which the override then lacks ("Missing parameter value for
 * target"). Both spellings are set so either reader finds the schedule.
 */
function keepBpoBlobParams(parsed: ParsedChain): void {
  for (const hf of Object.values(parsed.customHardforks ?? {})) {
    const p = hf.params;
    if (p === undefined || typeof p.targetBlobGasPerBlock !== 'number' || typeof p.maxBlobGasPerBlock !== 'number')
      continue;
    p.target = p.targetBlobGasPerBlock / BLOB_GAS_PER_BLOB;
    p.max = p.maxBlobGasPerBlock / BLOB_GAS_PER_BLOB;
  }
}

/**
 * Sets the Common's rules to those of a block (number, timestamp). A geth-genesis chain changes
 * forks as it grows, and the VM, the EVM and the mempool share this one Common.
 */
export function alignHardfork(common: Common, number: bigint, timestamp: bigint): void {
  common.setHardforkBy({ blockNumber: number, timestamp });
}

/** Writes the allocation into `sm` and returns the genesis block with the file's header fields. */
export async function buildGethGenesis(common: Common, sm: MerkleStateManager, g: GethGenesisJson): Promise<Block> {
  if (g.alloc === undefined || g.alloc === null || typeof g.alloc !== 'object') bad('"alloc" is missing');
  await sm.checkpoint();
  for (const [addr, acct] of Object.entries(g.alloc)) {
    const hex = addr.startsWith('0x') ? addr : `0x${addr}`;
    if (!/^0x[0-9a-fA-F]{40}$/.test(hex)) bad(`alloc key ${JSON.stringify(addr)} is not an address`);
    const address = createAddressFromString(hex.toLowerCase());
    const nonce = gethNumber(acct.nonce, `alloc[${addr}].nonce`);
    const balance = gethNumber(acct.balance, `alloc[${addr}].balance`);
    await sm.putAccount(address, new Account(nonce, balance));
    const code = bytesOf(acct.code, `alloc[${addr}].code`);
    if (code.length > 0) await sm.putCode(address, code);
    for (const [k, v] of Object.entries(acct.storage ?? {})) {
      const key = setLengthLeft(bytesOf(k, `alloc[${addr}].storage key`), 32);
      const value = bytesOf(v, `alloc[${addr}].storage[${k}]`);
      // Zero values are absent from the trie (geth skips them too).
      if (value.some((b) => b !== 0)) await sm.putStorage(address, key, value);
    }
  }
  await sm.commit();
  const stateRoot = await sm.getStateRoot();
  // The genesis block follows the rules at block 0 / its own timestamp, not the chain's newest.
  const timestamp = gethNumber(g.timestamp, 'timestamp');
  const probe = common.copy();
  probe.setHardforkBy({ blockNumber: 0n, timestamp });
  const header: Record<string, unknown> = {
    number: 0n,
    gasLimit: gethNumber(g.gasLimit, 'gasLimit'),
    difficulty: gethNumber(g.difficulty, 'difficulty'),
    extraData: bytesOf(g.extraData, 'extraData'),
    timestamp,
    nonce: setLengthLeft(bytesOf(`0x${gethNumber(g.nonce, 'nonce').toString(16)}`, 'nonce'), 8),
    mixHash: setLengthLeft(bytesOf(g.mixHash, 'mixHash'), 32),
    coinbase: createAddressFromString(`0x${(g.coinbase ?? '0x').replace(/^0x/i, '').padStart(40, '0')}`.toLowerCase()),
    stateRoot,
  };
  if (probe.isActivatedEIP(1559)) header.baseFeePerGas = gethNumber(g.baseFeePerGas, 'baseFeePerGas', INITIAL_BASE_FEE);
  if (probe.isActivatedEIP(4844)) {
    header.excessBlobGas = gethNumber(g.excessBlobGas, 'excessBlobGas');
    header.blobGasUsed = gethNumber(g.blobGasUsed, 'blobGasUsed');
  }
  if (probe.isActivatedEIP(4788)) header.parentBeaconBlockRoot = new Uint8Array(32);
  return createBlock(
    { header, ...(probe.isActivatedEIP(4895) ? { withdrawals: [] } : {}) },
    { common, setHardfork: true },
  );
}
