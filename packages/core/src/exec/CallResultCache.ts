import type { CallRequest } from './types.js';

/** What an eth_call ended with, enough to answer it again exactly (the error object is rebuilt from it). */
export interface CachedCall {
  returnValue: Uint8Array;
  /** EVM error text (`revert`, `out of gas`, …) when the call failed. */
  error?: string;
  /** The called contract's pcs up to its REVERT, when they were noted (to name the error's line). */
  pcs?: readonly number[];
}

/** Calldata longer than this is not cached: its key would cost more than most such calls. */
const MAX_KEY_DATA = 4_096;
/** Return data longer than this is not cached. */
const MAX_VALUE = 65_536;
/** What an entry costs besides its key and data (Map slot, objects). */
const ENTRY_OVERHEAD = 160;

/**
 * Answers of eth_call by (state, block, request). A call is a pure function of the state it runs
 * on, the block it runs in and the request: the key names the block by hash and the state by its
 * root (the head's state moves without a new block on dev edits, snapshot reverts and resets, and
 * every such move gives it a new root), so an entry can never answer for another state; entries
 * of states no longer reachable just age out.
 *
 * Bounded in entries and bytes by two generations (each at most half of both bounds): new and
 * recently read entries go to the young one; when it is full it becomes the old one and the old
 * one is dropped whole. Every operation is O(1), where evicting the oldest entry of one Map
 * costs a scan over the holes its deletions leave.
 */
export class CallResultCache {
  private young = new Map<string, CachedCall>();
  private old = new Map<string, CachedCall>();
  private youngBytes = 0;
  private readonly maxYoungEntries: number;
  private readonly maxYoungBytes: number;

  constructor(
    readonly maxEntries = 4_096,
    readonly maxBytes = 8 * 1024 * 1024,
  ) {
    this.maxYoungEntries = Math.floor(maxEntries / 2);
    this.maxYoungBytes = Math.floor(maxBytes / 2);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  get(key: string): CachedCall | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  set(key: string, value: CachedCall): void {
    const bytes = cost(key, value);
    if (value.returnValue.length > MAX_VALUE || bytes > this.maxYoungBytes || this.maxYoungEntries < 1) return;
    const before = this.young.get(key);
    if (before !== undefined) this.youngBytes -= cost(key, before);
    else if (this.young.size >= this.maxYoungEntries || this.youngBytes + bytes > this.maxYoungBytes) this.rotate();
    this.young.set(key, value);
    this.youngBytes += bytes;
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
    this.youngBytes = 0;
  }

  private rotate(): void {
    this.old = this.young;
    this.young = new Map();
    this.youngBytes = 0;
  }
}

function cost(key: string, value: CachedCall): number {
  return key.length * 2 + value.returnValue.length + (value.pcs?.length ?? 0) * 8 + ENTRY_OVERHEAD;
}

/**
 * Bytes as a string of one char per byte (0-255): a Map key half as long as hex and made without
 * a Buffer. Not for display.
 */
export function bytesKey(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/**
 * Every field of a call request that can change its outcome, as one string; undefined when the
 * request is not worth caching (large calldata). Absent and given fields differ (`gas` absent
 * means the cap), so each field is written as given; byte fields are fixed-length or
 * length-prefixed and numbers decimal, so no two requests share a key.
 */
export function callRequestKey(req: CallRequest): string | undefined {
  const data = req.data;
  if (data !== undefined && data.length > MAX_KEY_DATA) return undefined;
  const to = req.to;
  let key =
    (req.from === undefined ? 'u' : `a${bytesKey(req.from.bytes)}`) +
    (to === undefined ? 'u' : to === null ? 'n' : `a${bytesKey(to.bytes)}`) +
    `${req.gas ?? ''}|${req.gasPrice ?? ''}|${req.maxFeePerGas ?? ''}|${req.maxPriorityFeePerGas ?? ''}|${req.value ?? ''}|${req.nonce ?? ''}|${req.type ?? ''}|${req.chainId ?? ''}|` +
    (data === undefined ? 'u' : `d${data.length}:${bytesKey(data)}`);
  if (req.accessList !== undefined) {
    key += `|a${req.accessList.length}:`;
    for (const item of req.accessList) {
      key += `${bytesKey(item.address.bytes)}${item.storageKeys.length}:`;
      for (const slot of item.storageKeys) key += `${slot.length}:${bytesKey(slot)}`;
    }
  }
  if (req.authorizationList !== undefined) {
    key += `|l${req.authorizationList.length}:`;
    for (const a of req.authorizationList)
      key += `${a.chainId},${bytesKey(a.address.bytes)}${a.nonce},${a.yParity},${a.r},${a.s};`;
  }
  if (req.blobVersionedHashes !== undefined) {
    key += `|b${req.blobVersionedHashes.length}:`;
    for (const h of req.blobVersionedHashes) key += `${h.length}:${bytesKey(h)}`;
  }
  if (req.maxFeePerBlobGas !== undefined) key += `|f${req.maxFeePerBlobGas}`;
  return key;
}
