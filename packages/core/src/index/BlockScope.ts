import type { BatchWriter } from './BatchWriter.js';
import { concat, keyString, readU32, readU256, u8, u32, u256 } from './codec.js';
import { META_KEYS, keys } from './indexKeys.js';
import {
  type AddressRecord,
  copyToken,
  type DailyRecord,
  decodeAddress,
  decodeDaily,
  decodeGlobal,
  decodeToken,
  emptyAddress,
  emptyGlobal,
  encodeAddress,
  encodeDaily,
  encodeGlobal,
  encodeToken,
  type GlobalRecord,
  isEmptyAddress,
  type TokenRecord,
  tokenTypeByte,
} from './records.js';

const ZERO_ADDRESS = new Uint8Array(20);
const isZero = (a: Uint8Array): boolean => a.every((b) => b === 0);

interface AddressSlot {
  key: Uint8Array;
  rec: AddressRecord;
  /**
   * As committed before this scope: in the rankings (by balance and by count: the addresses with
   * a balance read), and at which balance and count.
   */
  ranked: boolean;
  balance: bigint;
  txCount: bigint;
}

interface TokenSlot {
  key: Uint8Array;
  /** As committed before this block (for the rank and name keys to replace). */
  before: TokenRecord | undefined;
  now: TokenRecord | undefined;
}

/** A signed balance: an ERC-20 may move tokens it never announced minting, so balances can dip below zero. */
function encodeSigned(v: bigint): Uint8Array {
  return concat(u8(v < 0n ? 1 : 0), u256(v < 0n ? -v : v));
}

function decodeSigned(b: Uint8Array | undefined): bigint {
  if (!b) return 0n;
  const abs = readU256(b, 1);
  return b[0] === 1 ? -abs : abs;
}

/**
 * The records a run of blocks changes — address records, token records, the chain-wide totals,
 * the daily counters — loaded once, changed in memory, and written once at `flush`, with the
 * rank keys (addresses by balance and by transaction count, tokens by holders) that depend on
 * them kept in step. The indexer keeps one scope over a whole batch of blocks: an automined
 * chain's sender, coinbase and totals change every block, and were each read, encoded and
 * written (with their rank keys deleted and put again) once per block; the batch's last values
 * are what the per-block writes left, so the index holds the same entries.
 */
export class BlockScope {
  private readonly addresses = new Map<string, AddressSlot>();
  private readonly tokens = new Map<string, TokenSlot>();
  private global?: GlobalRecord;
  private readonly days = new Map<number, DailyRecord>();

  constructor(readonly w: BatchWriter) {}

  // The loaded* reads answer at once what the scope holds already (most reads of a batch after
  // its first block), so the indexer awaits only a miss: an await costs a microtask turn and a
  // promise even when its value is at hand, some fifteen a block.

  /** The address's record if the scope has it (see `address`). */
  loaded(addr: Uint8Array): AddressRecord | undefined {
    return this.addresses.get(keyString(addr))?.rec;
  }

  /** The totals if the scope has read them (see `totals`). */
  loadedTotals(): GlobalRecord | undefined {
    return this.global;
  }

  /** A day's counters if the scope has read them (see `daily`). */
  loadedDay(day: number): DailyRecord | undefined {
    return this.days.get(day);
  }

  async address(addr: Uint8Array): Promise<AddressRecord> {
    const k = keyString(addr);
    const hit = this.addresses.get(k);
    if (hit) return hit.rec;
    const v = await this.w.read('idxAddress', addr);
    const rec = v ? decodeAddress(v) : emptyAddress();
    this.addresses.set(k, { key: addr, rec, ranked: rec.hasBalance, balance: rec.balance, txCount: rec.txCount });
    return rec;
  }

  async token(addr: Uint8Array): Promise<TokenRecord | undefined> {
    const k = keyString(addr);
    const hit = this.tokens.get(k);
    if (hit) return hit.now;
    const v = await this.w.read('idxToken', addr);
    const rec = v ? decodeToken(v) : undefined;
    this.tokens.set(k, { key: addr, before: rec ? copyToken(rec) : undefined, now: rec });
    return rec;
  }

  /** Creates (or, with undefined, deletes) a token record. */
  async setToken(addr: Uint8Array, rec: TokenRecord | undefined): Promise<void> {
    await this.token(addr);
    (this.tokens.get(keyString(addr)) as TokenSlot).now = rec;
  }

  async totals(): Promise<GlobalRecord> {
    if (!this.global) {
      const v = await this.w.read('idxMeta', META_KEYS.global);
      this.global = v ? decodeGlobal(v) : emptyGlobal();
    }
    return this.global;
  }

  /** The counters of a day (days since 1970-01-01 UTC), written at `flush`. */
  async daily(day: number): Promise<DailyRecord> {
    let d = this.days.get(day);
    if (!d) {
      const v = await this.w.read('idxDaily', keys.daily(day));
      d = v ? decodeDaily(v) : { txCount: 0n, gasUsed: 0n };
      this.days.set(day, d);
    }
    return d;
  }

  /**
   * Moves `delta` of a token to or from a holder: the balance, the holders-by-balance key, and
   * the token's holder count when the holder starts or stops holding. The zero address (mints,
   * burns) holds nothing, as in Blockscout.
   */
  async moveHolding(
    token: Uint8Array,
    rec: TokenRecord,
    holder: Uint8Array,
    id: bigint | null,
    delta: bigint,
  ): Promise<void> {
    if (delta === 0n || isZero(holder)) return;
    const key = keys.tokenBalance(holder, token, id);
    const old = decodeSigned(await this.w.read('idxTokenBalance', key));
    const now = old + delta;
    if (old > 0n) this.w.del('idxHolderRank', keys.holderRank(token, old, holder, id));
    if (now > 0n) this.w.put('idxHolderRank', keys.holderRank(token, now, holder, id), new Uint8Array(0));
    if (now === 0n) this.w.del('idxTokenBalance', key);
    else this.w.put('idxTokenBalance', key, encodeSigned(now));
    const starts = old <= 0n && now > 0n;
    const stops = old > 0n && now <= 0n;
    if (!starts && !stops) return;
    // An ERC-1155 holder counts once per token however many ids it holds (Blockscout counts
    // distinct addresses): the token's count moves only when the first id comes or the last goes.
    if (id !== null && !(await this.moveHeldIds(holder, token, starts ? 1 : -1))) return;
    rec.holders += starts ? 1n : -1n;
  }

  /** Moves a holder's count of held ids of an ERC-1155 token; true when it went from or to zero. */
  private async moveHeldIds(holder: Uint8Array, token: Uint8Array, delta: 1 | -1): Promise<boolean> {
    const key = keys.holderIds(holder, token);
    const raw = await this.w.read('idxHolderIds', key);
    const old = raw ? readU32(raw, 0) : 0;
    const now = old + delta;
    if (now <= 0) this.w.del('idxHolderIds', key);
    else this.w.put('idxHolderIds', key, u32(now));
    return old === 0 || now === 0;
  }

  /** Writes every changed record once. */
  flush(): void {
    for (const slot of this.addresses.values()) {
      const { key, rec } = slot;
      if (isEmptyAddress(rec)) this.w.del('idxAddress', key);
      else this.w.put('idxAddress', key, encodeAddress(rec));
      this.flushBalanceRank(slot);
      this.flushTxCountRank(slot);
    }
    for (const { key, before, now } of this.tokens.values()) this.flushToken(key, before, now);
    if (this.global) this.w.put('idxMeta', META_KEYS.global, encodeGlobal(this.global));
    for (const [day, d] of this.days) this.w.put('idxDaily', keys.daily(day), encodeDaily(d));
  }

  /** Addresses by balance: the addresses with a balance read, keyed by the balance (the last one read). */
  private flushBalanceRank({ key, rec, ranked, balance }: AddressSlot): void {
    const moved = ranked !== rec.hasBalance || balance !== rec.balance;
    if (!moved) return;
    if (ranked) this.w.del('idxBalanceRank', keys.balanceRank(balance, key));
    if (rec.hasBalance) this.w.put('idxBalanceRank', keys.balanceRank(rec.balance, key), new Uint8Array(0));
  }

  /** Addresses by transaction count: the addresses ranked by balance (those with a balance read), keyed by count. */
  private flushTxCountRank({ key, rec, ranked, txCount }: AddressSlot): void {
    const moved = ranked !== rec.hasBalance || txCount !== rec.txCount;
    if (!moved) return;
    if (ranked) this.w.del('idxTxCountRank', keys.txCountRank(txCount, key));
    if (rec.hasBalance) this.w.put('idxTxCountRank', keys.txCountRank(rec.txCount, key), new Uint8Array(0));
  }

  private flushToken(key: Uint8Array, before: TokenRecord | undefined, now: TokenRecord | undefined): void {
    if (!before && !now) return;
    const rankBefore = before ? keys.tokenRank(tokenTypeByte(before.type), before.holders, key) : undefined;
    const rankNow = now ? keys.tokenRank(tokenTypeByte(now.type), now.holders, key) : undefined;
    const moved = !rankBefore || !rankNow || keyString(rankBefore) !== keyString(rankNow);
    if (moved && rankBefore) this.w.del('idxTokenRank', rankBefore);
    if (moved && rankNow) this.w.put('idxTokenRank', rankNow, new Uint8Array(0));
    if (now) this.w.put('idxToken', key, encodeToken(now));
    else this.w.del('idxToken', key);
    // Name and symbol never change after the first read: written with the token, removed with it.
    if (!before && now)
      for (const t of searchTexts(now)) this.w.put('idxTokenName', keys.tokenName(t, key), new Uint8Array(0));
    if (before && !now) for (const t of searchTexts(before)) this.w.del('idxTokenName', keys.tokenName(t, key));
  }
}

function searchTexts(t: TokenRecord): string[] {
  const out = new Set<string>();
  if (t.name) out.add(t.name.toLowerCase());
  if (t.symbol) out.add(t.symbol.toLowerCase());
  return [...out];
}

export { ZERO_ADDRESS, isZero, decodeSigned };
