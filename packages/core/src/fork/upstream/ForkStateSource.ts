import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { AshlarError } from '../../errors/AshlarError.js';
import { ErrorCodes } from '../../errors/codes.js';
import { concat, fromData, toData, toQuantity } from '../../util/hex.js';
import type { ForkCache } from './ForkCache.js';
import type { UpstreamClient } from './UpstreamClient.js';
import { describeCall } from './upstreamError.js';

export interface UpstreamAccount {
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
}

/** Cache key kinds: 'a' + address → account, 's' + address + slot → storage word. */
const ACCOUNT = 0x61;
const STORAGE = 0x73;

/**
 * The upstream's state at one fixed block N, with a cache in front. A first touch of an account is
 * three calls (balance, nonce, code) issued together, so they leave as one batch: one HTTP request.
 * Concurrent reads of the same key share one upstream read. Only answers that parse are cached; an
 * upstream failure rejects (AshlarError ASHLAR_ERR_FORK_UPSTREAM) and leaves the cache as it was.
 */
export class ForkStateSource {
  readonly stats = { upstreamStateCalls: 0, cacheHits: 0, cacheReadFailures: 0, cacheWriteFailures: 0 };
  private readonly block: `0x${string}`;
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly client: UpstreamClient,
    readonly blockNumber: bigint,
    private readonly cache: ForkCache,
  ) {
    this.block = toQuantity(blockNumber);
  }

  getAccount(address: Uint8Array): Promise<UpstreamAccount> {
    if (address.length !== 20) return Promise.reject(badInput(`address must be 20 bytes, got ${address.length}`));
    const key = concat(Uint8Array.of(ACCOUNT), address);
    return this.once(key, async () => {
      const cached = await this.recall(key, decodeAccount);
      if (cached !== undefined) return cached;
      const hex = toData(address);
      this.stats.upstreamStateCalls += 3;
      const [balance, nonce, code] = await Promise.all([
        this.client.request<unknown>('eth_getBalance', [hex, this.block]),
        this.client.request<unknown>('eth_getTransactionCount', [hex, this.block]),
        this.client.request<unknown>('eth_getCode', [hex, this.block]),
      ]);
      const account: UpstreamAccount = {
        balance: this.quantity(balance, 'eth_getBalance', [hex, this.block]),
        nonce: this.quantity(nonce, 'eth_getTransactionCount', [hex, this.block]),
        code: this.data(code, 'eth_getCode', [hex, this.block]),
      };
      await this.remember(key, encodeAccount(account));
      return account;
    });
  }

  getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    if (address.length !== 20) return Promise.reject(badInput(`address must be 20 bytes, got ${address.length}`));
    if (slot.length !== 32) return Promise.reject(badInput(`storage slot must be 32 bytes, got ${slot.length}`));
    const key = concat(Uint8Array.of(STORAGE), address, slot);
    return this.once(key, async () => {
      const cached = await this.recall(key, decodeWord);
      if (cached !== undefined) return cached;
      // The slot as a QUANTITY: what Hardhat requires, and geth and Anvil accept.
      const params = [toData(address), toQuantity(bytesToBigInt(slot)), this.block];
      this.stats.upstreamStateCalls++;
      const answer = await this.client.request<unknown>('eth_getStorageAt', params);
      const word = this.word(answer, params);
      await this.remember(key, word);
      return word;
    });
  }

  /** A cached answer, or undefined on a miss; an entry that cannot be read or decoded (a damaged
   * cache) counts as a miss, so the upstream is asked again and the entry rewritten. */
  private async recall<T>(key: Uint8Array, decode: (bytes: Uint8Array) => T): Promise<T | undefined> {
    let value: T | undefined;
    try {
      const bytes = await this.cache.get(key);
      value = bytes === undefined ? undefined : decode(bytes);
    } catch {
      this.stats.cacheReadFailures++;
      return undefined;
    }
    if (value !== undefined) this.stats.cacheHits++;
    return value;
  }

  /** A cache that cannot write (disk full) only stays cold: the answer in hand is still right. */
  private async remember(key: Uint8Array, value: Uint8Array): Promise<void> {
    try {
      await this.cache.put(key, value);
    } catch {
      this.stats.cacheWriteFailures++;
    }
  }

  /** One read per key at a time: a second caller waits for the first's answer. */
  private once<T>(key: Uint8Array, read: () => Promise<T>): Promise<T> {
    const id = toData(key);
    const running = this.inFlight.get(id);
    if (running !== undefined) return running as Promise<T>;
    const promise = read().finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, promise);
    return promise;
  }

  private quantity(value: unknown, method: string, params: unknown[]): bigint {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw this.badAnswer(value, method, params);
    return BigInt(value);
  }

  private data(value: unknown, method: string, params: unknown[]): Uint8Array {
    if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw this.badAnswer(value, method, params);
    return fromData(value);
  }

  /** A storage word, left-padded to 32 bytes (some nodes answer a QUANTITY). */
  private word(value: unknown, params: unknown[]): Uint8Array {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{0,64}$/.test(value)) {
      throw this.badAnswer(value, 'eth_getStorageAt', params);
    }
    const digits = value.slice(2).padStart(64, '0');
    return fromData(`0x${digits}`);
  }

  private badAnswer(value: unknown, method: string, params: unknown[]): AshlarError {
    const shown = JSON.stringify(value) ?? String(value);
    return new AshlarError(
      ErrorCodes.FORK_UPSTREAM,
      `upstream ${this.client.displayUrl} answered ${describeCall(method, params)} with a malformed result: ${shown.slice(0, 100)}`,
      { data: { upstream: this.client.displayUrl, method, params, attempts: 1, cause: 'malformed result' } },
    );
  }
}

function badInput(message: string): AshlarError {
  return new AshlarError(ErrorCodes.INVALID_PARAMS, message);
}

function encodeAccount(a: UpstreamAccount): Uint8Array {
  return RLP.encode([bigIntToUnpaddedBytes(a.nonce), bigIntToUnpaddedBytes(a.balance), a.code]);
}

function decodeAccount(bytes: Uint8Array): UpstreamAccount {
  const fields = RLP.decode(bytes);
  if (!Array.isArray(fields) || fields.length !== 3 || !fields.every((f) => f instanceof Uint8Array)) {
    throw new AshlarError(ErrorCodes.STORAGE, 'fork cache holds a malformed account entry');
  }
  const [nonce, balance, code] = fields as Uint8Array[];
  return {
    nonce: bytesToBigInt(nonce as Uint8Array),
    balance: bytesToBigInt(balance as Uint8Array),
    code: code as Uint8Array,
  };
}

function decodeWord(bytes: Uint8Array): Uint8Array {
  if (bytes.length !== 32) throw new AshlarError(ErrorCodes.STORAGE, 'fork cache holds a malformed storage entry');
  return bytes;
}
