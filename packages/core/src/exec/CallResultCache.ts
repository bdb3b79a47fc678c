import { bytesToHex } from '@ethereumjs/util';
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
 * of states no longer reachable just age out. Least recently used entries go first; bounded in
 * entries and in bytes.
 */
export class CallResultCache {
  private readonly entries = new Map<string, CachedCall>();
  private bytes = 0;

  constructor(
    readonly maxEntries = 4_096,
    readonly maxBytes = 8 * 1024 * 1024,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedCall | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    // Most recently used last: delete and put back.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, value: CachedCall): void {
    if (value.returnValue.length > MAX_VALUE || this.maxEntries <= 0) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= cost(key, old);
    }
    this.entries.set(key, value);
    this.bytes += cost(key, value);
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.bytes -= cost(oldest, this.entries.get(oldest) as CachedCall);
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

function cost(key: string, value: CachedCall): number {
  return key.length * 2 + value.returnValue.length + (value.pcs?.length ?? 0) * 8 + ENTRY_OVERHEAD;
}

/**
 * Every field of a call request that can change its outcome, as one string; undefined when the
 * request is not worth caching (large calldata). Absent and given fields differ (`gas` absent
 * means the cap), so each field is written as given.
 */
export function callRequestKey(req: CallRequest): string | undefined {
  const data = req.data;
  if (data !== undefined && data.length > MAX_KEY_DATA) return undefined;
  let key = `${req.from?.toString() ?? ''}|${req.to === undefined ? 'u' : (req.to?.toString() ?? 'n')}|${req.gas ?? ''}|${req.gasPrice ?? ''}|${req.maxFeePerGas ?? ''}|${req.maxPriorityFeePerGas ?? ''}|${req.value ?? ''}|${req.nonce ?? ''}|${req.type ?? ''}|${req.chainId ?? ''}|${data === undefined ? '' : bytesToHex(data)}`;
  if (req.accessList !== undefined) {
    key += '|a';
    for (const item of req.accessList) {
      key += `:${item.address.toString()}`;
      for (const slot of item.storageKeys) key += `,${bytesToHex(slot)}`;
    }
  }
  if (req.authorizationList !== undefined) {
    key += '|l';
    for (const a of req.authorizationList)
      key += `:${a.chainId},${a.address.toString()},${a.nonce},${a.yParity},${a.r},${a.s}`;
  }
  if (req.blobVersionedHashes !== undefined) {
    key += '|b';
    for (const h of req.blobVersionedHashes) key += `:${bytesToHex(h)}`;
  }
  if (req.maxFeePerBlobGas !== undefined) key += `|f${req.maxFeePerBlobGas}`;
  return key;
}
