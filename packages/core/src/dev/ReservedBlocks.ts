import { type Block, createBlock } from '@ethereumjs/block';
import type { Address } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { ChainService, VirtualBlocks } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';
import { storedBlock } from '../chain/storedBlock.js';
import type { EventBus } from '../events/EventBus.js';
import { setCachedHeaderHash } from '../evm/internals.js';
import { Lru } from '../util/Lru.js';
import { readU64, u64 } from '../util/hex.js';
import { baseFeeSchedule, excessBlobGasSchedule } from './emptyBlockFees.js';

/**
 * A run of empty blocks that exist without having been built (hardhat_mine). Block `k` of it
 * is made from these fields when someone asks for it, in O(1), whatever the run's length.
 */
interface Reservation {
  first: bigint;
  last: bigint;
  interval: bigint;
  /** The stored block just before the run. */
  anchorHash: Uint8Array;
  anchorTimestamp: bigint;
  anchorTotalDifficulty: bigint;
  stateRoot: Uint8Array;
  gasLimit: bigint;
  coinbase: Address;
  difficulty: bigint;
  /** Base fee of each block from `first` on, until it stops changing (empty blocks lower it by 1/8). */
  baseFees: bigint[];
  excessBlobGas: bigint[];
  /** 32 bytes every hash of the run derives from (see hashOf). */
  idBase: Uint8Array;
}

const at = (list: bigint[], i: bigint): bigint | undefined =>
  list.length === 0 ? undefined : list[i < BigInt(list.length) ? Number(i) : list.length - 1];

/**
 * Empty blocks reserved by `hardhat_mine`: a range costs one record, and a block of it is
 * materialised on demand (an LRU keeps the recent ones). Headers chain by parent hash, their
 * timestamps step by the interval and their base fees fall as empty blocks' do.
 *
 * Two deviations from blocks that were really built, both so that a range of any length costs
 * O(1) (documented in docs/dev-methods.md):
 * - a reserved block keeps the state root of the block before it: nothing ran, so no system
 *   call (EIP-4788 beacon root, EIP-2935 history) wrote to state;
 * - its hash is an identifier, not the keccak of its header: `idBase` with the block number
 *   folded into its last 8 bytes. Real hashes chain (each hashes its parent's), so the head of
 *   a million-block range would need a million header hashes before the next block could be built.
 *   Every reader (parentHash links, eth_getBlockByHash, BLOCKHASH) sees the same identifiers.
 */
export class ReservedBlocks implements VirtualBlocks {
  private reservations: Reservation[] = [];
  private readonly cache = new Lru<bigint, StoredBlock>(256);

  constructor(
    private readonly chain: ChainService,
    events: EventBus,
  ) {
    chain.setVirtualBlocks(this);
    // Whoever moves the head back (snapshot revert, reset), blocks above it stop existing.
    events.on('revert', ({ toNumber }) => this.truncateAbove(toNumber));
  }

  /** True when some range is reserved (the chain has blocks that were never built). */
  get active(): boolean {
    return this.reservations.length > 0;
  }

  /**
   * Reserves `count` empty blocks on top of the head, `interval` seconds apart, and makes the
   * last of them the head. The head must be a built block (hardhat_mine mines one first).
   * Call inside chain.exclusive.
   */
  reserve(count: bigint, interval: bigint, opts: { gasLimit: bigint; coinbase: Address }): StoredBlock {
    const chain = this.chain;
    const anchor = chain.head;
    if (count < 1n) throw new RangeError('reserve needs at least one block');
    if (this.isReserved(anchor.number)) throw new RangeError('the head must be a built block to reserve after it');
    const header = anchor.block.header;
    const common = chain.common;
    const first = anchor.number + 1n;
    const baseFees = common.isActivatedEIP(1559) ? baseFeeSchedule(header.calcNextBaseFee(), common) : [];
    const excess = common.isActivatedEIP(4844)
      ? excessBlobGasSchedule(header.calcNextExcessBlobGas(common), at(baseFees, 0n) ?? 0n, common)
      : [];
    const idBase = keccak_256(
      new Uint8Array([...anchor.hash, ...u64(first), ...u64(count), ...new TextEncoder().encode('ashlar:reserved')]),
    );
    this.reservations.push({
      first,
      last: anchor.number + count,
      interval,
      anchorHash: anchor.hash,
      anchorTimestamp: header.timestamp,
      anchorTotalDifficulty: anchor.totalDifficulty,
      stateRoot: chain.headStateRoot,
      gasLimit: opts.gasLimit,
      coinbase: opts.coinbase,
      difficulty: common.gteHardfork('paris') ? 0n : header.difficulty,
      baseFees,
      excessBlobGas: excess,
      idBase,
    });
    const head = this.get(anchor.number + count) as StoredBlock;
    chain.head = head;
    return head;
  }

  get(n: bigint): StoredBlock | undefined {
    const r = this.find(n);
    if (!r) return undefined;
    const hit = this.cache.get(n);
    if (hit) return hit;
    const sb = this.materialise(r, n);
    this.cache.set(n, sb);
    return sb;
  }

  numberOf(hash: Uint8Array): bigint | undefined {
    if (hash.length !== 32) return undefined;
    for (const r of this.reservations) {
      let same = true;
      for (let i = 0; i < 24 && same; i++) same = hash[i] === r.idBase[i];
      if (!same) continue;
      const n = readU64(hash, 24) ^ readU64(r.idBase, 24);
      if (n >= r.first && n <= r.last) return n;
    }
    return undefined;
  }

  storedAtOrBelow(n: bigint): bigint {
    let out = n;
    for (let r = this.find(out); r; r = this.find(out)) out = r.first - 1n;
    return out;
  }

  isReserved(n: bigint): boolean {
    return this.find(n) !== undefined;
  }

  /** Timestamp of a reserved block, without materialising it. */
  timestampOf(n: bigint): bigint | undefined {
    const r = this.find(n);
    return r ? r.anchorTimestamp + r.interval * (n - r.first + 1n) : undefined;
  }

  /** Forgets reserved blocks above `n` (the head moved back). */
  truncateAbove(n: bigint): void {
    const kept: Reservation[] = [];
    for (const r of this.reservations) {
      if (r.first > n) continue;
      kept.push(r.last > n ? { ...r, last: n } : r);
    }
    this.reservations = kept;
    this.cache.clear();
  }

  private find(n: bigint): Reservation | undefined {
    const rs = this.reservations;
    for (let i = rs.length - 1; i >= 0; i--) {
      const r = rs[i];
      if (n >= r.first && n <= r.last) return r;
      if (n > r.last) return undefined; // ranges are appended in block order
    }
    return undefined;
  }

  private hashOf(r: Reservation, n: bigint): Uint8Array {
    if (n === r.first - 1n) return r.anchorHash;
    const out = r.idBase.slice();
    const folded = u64(readU64(r.idBase, 24) ^ n);
    out.set(folded, 24);
    return out;
  }

  private materialise(r: Reservation, n: bigint): StoredBlock {
    const i = n - r.first;
    const hash = this.hashOf(r, n);
    const common = this.chain.common;
    const parentHash = this.hashOf(r, n - 1n);
    const block: Block = createBlock(
      {
        header: {
          parentHash,
          number: n,
          timestamp: r.anchorTimestamp + r.interval * (i + 1n),
          gasLimit: r.gasLimit,
          coinbase: r.coinbase,
          stateRoot: r.stateRoot,
          difficulty: r.difficulty,
          // prevRandao as the miner derives it: from the parent's hash
          mixHash: keccak_256(parentHash),
          baseFeePerGas: at(r.baseFees, i),
          excessBlobGas: at(r.excessBlobGas, i),
          blobGasUsed: common.isActivatedEIP(4844) ? 0n : undefined,
          parentBeaconBlockRoot: common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
        },
        withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
      },
      { common, setHardfork: true },
    );
    // The header's hash is the range's identifier (see the class comment); @ethereumjs reads
    // it from this cache once set, so block.hash() and header.hash() agree with sb.hash.
    setCachedHeaderHash(block.header, hash);
    const size = block.serialize().length;
    return storedBlock({
      block,
      number: n,
      hash,
      senders: [],
      receipts: [],
      totalDifficulty: r.anchorTotalDifficulty + r.difficulty * (i + 1n),
      size,
    });
  }
}
