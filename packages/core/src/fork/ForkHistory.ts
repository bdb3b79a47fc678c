import type { UpstreamClient } from './upstream/UpstreamClient.js';
import { Lru } from '../util/Lru.js';
import { fromData, toData, toQuantity } from '../util/hex.js';

/** A block as eth_getBlockByNumber answers it (the fields this module reads; the rest passes through). */
export interface RpcBlock {
  hash: string;
  number: string;
  stateRoot: string;
  [field: string]: unknown;
}

/** What eth_getLogs asks the upstream for: the range and the filter's addresses and topics. */
export interface UpstreamLogFilter {
  addresses: { bytes: Uint8Array }[];
  topics: (Uint8Array[] | null)[];
}

/**
 * History at or below the fork block N lives on the upstream: blocks, transactions, receipts and
 * logs there are forwarded, answered as the upstream answers them. The upstream keeps growing past
 * N, and its later blocks are not this chain's: an answer that names a block after N is null here.
 */
export class ForkHistory {
  /** Hashes of upstream blocks BLOCKHASH asked for (the 256 below N at most are reachable). */
  private readonly hashes = new Lru<bigint, Uint8Array>(256);

  constructor(
    private readonly client: UpstreamClient,
    /** The fork block N. */
    readonly forkNumber: bigint,
  ) {}

  /** Block `n` is the upstream's (n ≤ N). */
  covers(n: bigint): boolean {
    return n <= this.forkNumber;
  }

  /** eth_getBlockByNumber at n ≤ N. */
  blockByNumber(n: bigint, full: boolean): Promise<RpcBlock | null> {
    return this.client.request<RpcBlock | null>('eth_getBlockByNumber', [toQuantity(n), full]);
  }

  /** The hash of upstream block n ≤ N (BLOCKHASH below the fork), or undefined when the upstream has none. */
  async hashOf(n: bigint): Promise<Uint8Array | undefined> {
    const hit = this.hashes.get(n);
    if (hit) return hit;
    const block = await this.blockByNumber(n, false);
    if (!block || typeof block.hash !== 'string') return undefined;
    const hash = fromData(block.hash);
    this.hashes.set(n, hash);
    return hash;
  }

  /** eth_getBlockByHash: null for a block after N. */
  async blockByHash(hash: Uint8Array, full: boolean): Promise<RpcBlock | null> {
    const b = await this.client.request<RpcBlock | null>('eth_getBlockByHash', [toData(hash), full]);
    return b && this.upTo(b.number) ? b : null;
  }

  /**
   * A by-hash lookup (eth_getTransactionByHash, eth_getTransactionReceipt): the upstream's
   * answer when it lies at or below N, else null.
   */
  async byHash(method: string, hash: Uint8Array): Promise<unknown> {
    const v = await this.client.request<{ blockNumber?: unknown } | null>(method, [toData(hash)]);
    return v && this.upTo(v.blockNumber) ? v : null;
  }

  /** Any other call about a block at or below N, passed on as is. */
  forward<T = unknown>(method: string, params: unknown[]): Promise<T> {
    return this.client.request<T>(method, params);
  }

  /** eth_getLogs over from..to, both at or below N. */
  logs(filter: UpstreamLogFilter, from: bigint, to: bigint): Promise<unknown[]> {
    const query: Record<string, unknown> = { fromBlock: toQuantity(from), toBlock: toQuantity(to) };
    if (filter.addresses.length > 0) query.address = filter.addresses.map((a) => toData(a.bytes));
    if (filter.topics.length > 0) query.topics = filter.topics.map((t) => (t === null ? null : t.map(toData)));
    return this.client.request<unknown[]>('eth_getLogs', [query]);
  }

  private upTo(number: unknown): boolean {
    return typeof number === 'string' && /^0x[0-9a-f]+$/i.test(number) && BigInt(number) <= this.forkNumber;
  }
}
