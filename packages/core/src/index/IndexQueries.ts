import { compareBytes, concat, keyString, readU32, readU64, readU256, u8, u32, u64, u256, utf8 } from './codec.js';
import { decodeSigned } from './BlockScope.js';
import { META_KEYS, ROLE_FROM, ROLE_TO, internalPos, keys, logPos, transferPos, txPos } from './indexKeys.js';
import type { IndexStore, IndexTable } from './IndexStore.js';
import {
  type AddressRecord,
  type CoinBalanceRecord,
  type ContractRecord,
  type DailyRecord,
  type GlobalRecord,
  type TokenRecord,
  type TokenType,
  type TransferRecord,
  type TxKind,
  TX_KINDS,
  type WithdrawalRecord,
  INTERNAL_ERROR_BIT,
  decodeAddress,
  decodeCoinBalance,
  decodeContract,
  decodeDaily,
  decodeGlobal,
  decodeToken,
  decodeTransfer,
  decodeWithdrawal,
  emptyGlobal,
  tokenTypeByte,
  txKindsOf,
} from './records.js';

export interface TxPosition {
  block: bigint;
  index: number;
}

export interface TransferPosition {
  block: bigint;
  logIndex: number;
  sub: number;
}

export type Role = 'from' | 'to';

/** Position of an internal transaction: its block, transaction and frame index in the transaction. */
export interface InternalPosition {
  block: bigint;
  txIndex: number;
  index: number;
}

/** Which internal transactions to list, newest first. */
export type InternalSource = { kind: 'all' } | { kind: 'address'; address: Uint8Array; roles: readonly Role[] };

/** Which transactions to list, newest first. */
export type TxSource =
  | { kind: 'all' }
  | { kind: 'kinds'; kinds: readonly TxKind[] }
  | { kind: 'method'; selectors: readonly Uint8Array[] }
  | { kind: 'address'; address: Uint8Array; roles: readonly Role[] };

/** Which token transfers to list, newest first. */
export type TransferSource =
  | { kind: 'all' }
  | { kind: 'token'; token: Uint8Array }
  | { kind: 'address'; address: Uint8Array; roles: readonly Role[]; types: readonly TokenType[]; token?: Uint8Array };

interface Source {
  table: IndexTable;
  prefix: Uint8Array;
}

const roleByte = (r: Role): number => (r === 'from' ? ROLE_FROM : ROLE_TO);

/**
 * The explorer's reads of the index. Every list is a reverse range scan below a cursor (the
 * last item's position), over one or a few key prefixes merged: a page costs O(page size ×
 * prefixes), never O(history).
 */
export class IndexQueries {
  constructor(private readonly store: IndexStore) {}

  /**
   * Positions below `after` from several prefixes, newest first (`reverse` false: above `after`,
   * oldest first), duplicates (a transaction both sent and received by one address) once.
   */
  private async merged(
    sources: Source[],
    after: Uint8Array | undefined,
    limit: number,
    reverse = true,
  ): Promise<Uint8Array[]> {
    const lists = await Promise.all(
      sources.map((s) => this.store.range(s.table, { prefix: s.prefix, after, reverse, limit })),
    );
    const out: Uint8Array[] = [];
    for (let i = 0; i < lists.length; i++) for (const e of lists[i]) out.push(e.key.subarray(sources[i].prefix.length));
    if (sources.length > 1) out.sort((a, b) => (reverse ? compareBytes(b, a) : compareBytes(a, b)));
    const unique: Uint8Array[] = [];
    let last = '';
    for (const p of out) {
      const k = keyString(p);
      if (k === last) continue;
      last = k;
      unique.push(p);
      if (unique.length === limit) break;
    }
    return unique;
  }

  async txs(source: TxSource, after: TxPosition | undefined, limit: number): Promise<TxPosition[]> {
    let sources: Source[];
    switch (source.kind) {
      case 'all':
        sources = [{ table: 'idxTx', prefix: new Uint8Array(0) }];
        break;
      case 'kinds':
        sources = source.kinds.map((k) => ({ table: 'idxTxKind', prefix: u8(TX_KINDS.indexOf(k)) }));
        break;
      case 'method':
        sources = source.selectors.map((s) => ({ table: 'idxTxMethod', prefix: s }));
        break;
      case 'address':
        sources = source.roles.map((r) => ({
          table: 'idxAddrTx',
          prefix: keys.addrTxPrefix(source.address, roleByte(r)),
        }));
    }
    const pos = await this.merged(sources, after ? txPos(after.block, after.index) : undefined, limit);
    return pos.map((p) => ({ block: readU64(p, 0), index: readU32(p, 8) }));
  }

  async internals(
    source: InternalSource,
    after: InternalPosition | undefined,
    limit: number,
  ): Promise<InternalPosition[]> {
    const sources: Source[] =
      source.kind === 'all'
        ? [{ table: 'idxInternal', prefix: new Uint8Array(0) }]
        : source.roles.map((r) => ({
            table: 'idxAddrInternal',
            prefix: keys.addrTxPrefix(source.address, roleByte(r)),
          }));
    const pos = await this.merged(
      sources,
      after ? internalPos(after.block, after.txIndex, after.index) : undefined,
      limit,
    );
    return pos.map((p) => ({ block: readU64(p, 0), txIndex: readU32(p, 8), index: readU32(p, 12) }));
  }

  /** Kinds of transactions by position, and whether a call frame below the top one failed (`has_error_in_internal_txs`). */
  async txFlags(positions: TxPosition[]): Promise<{ kinds: TxKind[]; internalError: boolean }[]> {
    const vals = await this.store.getMany(
      'idxTx',
      positions.map((p) => txPos(p.block, p.index)),
    );
    return vals.map((v) => {
      const mask = v?.[0] ?? 0;
      return { kinds: txKindsOf(mask), internalError: (mask & INTERNAL_ERROR_BIT) !== 0 };
    });
  }

  /** Kinds of transactions by position (their `transaction_types`). */
  async txKinds(positions: TxPosition[]): Promise<TxKind[][]> {
    const vals = await this.store.getMany(
      'idxTx',
      positions.map((p) => txPos(p.block, p.index)),
    );
    return vals.map((v) => txKindsOf(v?.[0] ?? 0));
  }

  async transfers(
    source: TransferSource,
    after: TransferPosition | undefined,
    limit: number,
  ): Promise<TransferRecord[]> {
    let sources: Source[];
    if (source.kind === 'all') sources = [{ table: 'idxTransfer', prefix: new Uint8Array(0) }];
    else if (source.kind === 'token') sources = [{ table: 'idxTokenTransfer', prefix: source.token }];
    else if (source.token) {
      const { address, token } = source;
      sources = source.roles.map((r) => ({
        table: 'idxAddrTokenTransfer',
        prefix: keys.addrTokenTransferPrefix(address, token, roleByte(r)),
      }));
    } else {
      const { address } = source;
      sources = source.types.flatMap((t) =>
        source.roles.map((r) => ({
          table: 'idxAddrTransfer' as const,
          prefix: keys.addrTransferPrefix(address, tokenTypeByte(t), roleByte(r)),
        })),
      );
    }
    const pos = await this.merged(
      sources,
      after ? transferPos(after.block, after.logIndex, after.sub) : undefined,
      limit,
    );
    return this.transferRecords(pos);
  }

  private async transferRecords(pos: Uint8Array[]): Promise<TransferRecord[]> {
    const vals = await this.store.getMany('idxTransfer', pos);
    const out: TransferRecord[] = [];
    for (let i = 0; i < pos.length; i++) {
      const v = vals[i];
      if (v) out.push(decodeTransfer(pos[i], v));
    }
    return out;
  }

  /** Logs an address emitted, newest first. */
  async addressLogs(address: Uint8Array, after: { block: bigint; logIndex: number } | undefined, limit: number) {
    const rows = await this.store.range('idxAddrLog', {
      prefix: address,
      after: after ? logPos(after.block, after.logIndex) : undefined,
      reverse: true,
      limit,
    });
    return rows.map((e) => ({ block: readU64(e.key, 20), logIndex: readU32(e.key, 28), txIndex: readU32(e.value, 0) }));
  }

  async validatedBlocks(miner: Uint8Array, before: bigint | undefined, limit: number): Promise<bigint[]> {
    const rows = await this.store.range('idxValidated', {
      prefix: miner,
      after: before === undefined ? undefined : u64(before),
      reverse: true,
      limit,
    });
    return rows.map((e) => readU64(e.key, 20));
  }

  async coinHistory(address: Uint8Array, before: bigint | undefined, limit: number): Promise<CoinBalanceRecord[]> {
    const rows = await this.store.range('idxCoinHistory', {
      prefix: address,
      after: before === undefined ? undefined : u64(before),
      reverse: true,
      limit,
    });
    return rows.map((e) => decodeCoinBalance(readU64(e.key, 20), e.value));
  }

  async withdrawals(before: bigint | undefined, limit: number): Promise<WithdrawalRecord[]> {
    const rows = await this.store.range('idxWithdrawal', {
      prefix: new Uint8Array(0),
      after: before === undefined ? undefined : u64(before),
      reverse: true,
      limit,
    });
    return rows.map((e) => decodeWithdrawal(readU64(e.key, 0), e.value));
  }

  /** Addresses by coin balance, richest first (ties: higher address first); `asc`: poorest first. */
  async addressesByBalance(
    after: { balance: bigint; address: Uint8Array } | undefined,
    limit: number,
    order: 'asc' | 'desc' = 'desc',
  ) {
    const rows = await this.store.range('idxBalanceRank', {
      prefix: new Uint8Array(0),
      after: after ? keys.balanceRank(after.balance, after.address) : undefined,
      reverse: order === 'desc',
      limit,
    });
    return rows.map((e) => ({ balance: readU256(e.key, 0), address: e.key.slice(32, 52) }));
  }

  /** Addresses (those ranked by balance) by transaction count, most first, or fewest with `order=asc`. */
  async addressesByTxCount(
    after: { count: bigint; address: Uint8Array } | undefined,
    limit: number,
    order: 'asc' | 'desc' = 'desc',
  ) {
    const rows = await this.store.range('idxTxCountRank', {
      prefix: new Uint8Array(0),
      after: after ? keys.txCountRank(after.count, after.address) : undefined,
      reverse: order === 'desc',
      limit,
    });
    return rows.map((e) => ({ count: readU64(e.key, 0), address: e.key.slice(8, 28) }));
  }

  async address(address: Uint8Array): Promise<AddressRecord | undefined> {
    const v = await this.store.get('idxAddress', address);
    return v ? decodeAddress(v) : undefined;
  }

  async addresses(list: Uint8Array[]): Promise<(AddressRecord | undefined)[]> {
    return (await this.store.getMany('idxAddress', list)).map((v) => (v ? decodeAddress(v) : undefined));
  }

  async contract(address: Uint8Array): Promise<ContractRecord | undefined> {
    const v = await this.store.get('idxContract', address);
    return v ? decodeContract(v) : undefined;
  }

  async contracts(list: Uint8Array[]): Promise<(ContractRecord | undefined)[]> {
    return (await this.store.getMany('idxContract', list)).map((v) => (v ? decodeContract(v) : undefined));
  }

  async token(address: Uint8Array): Promise<TokenRecord | undefined> {
    const v = await this.store.get('idxToken', address);
    return v ? decodeToken(v) : undefined;
  }

  async tokens(list: Uint8Array[]): Promise<(TokenRecord | undefined)[]> {
    return (await this.store.getMany('idxToken', list)).map((v) => (v ? decodeToken(v) : undefined));
  }

  /** Tokens by holder count, most held first (ties: higher address first); `asc`: least held first. */
  async tokensByHolders(
    types: readonly TokenType[],
    after: { holders: bigint; address: Uint8Array } | undefined,
    limit: number,
    order: 'asc' | 'desc' = 'desc',
  ) {
    const sources = types.map((t) => ({ table: 'idxTokenRank' as const, prefix: u8(tokenTypeByte(t)) }));
    const cursor = after ? concat(u64(after.holders), after.address) : undefined;
    const pos = await this.merged(sources, cursor, limit, order === 'desc');
    return pos.map((p) => ({ holders: readU64(p, 0), address: p.slice(8, 28) }));
  }

  /** Tokens whose name or symbol starts with `text` (case-insensitive), in key order. */
  async searchTokens(text: string, after: Uint8Array | undefined, limit: number) {
    const prefix = utf8(text.toLowerCase());
    const rows = await this.store.range('idxTokenName', { prefix, after, reverse: false, limit });
    const seen = new Set<string>();
    const out: { address: Uint8Array; cursor: Uint8Array }[] = [];
    for (const e of rows) {
      const address = e.key.slice(e.key.length - 20);
      const k = keyString(address);
      // a token whose name and symbol both match appears once
      if (seen.has(k)) continue;
      seen.add(k);
      out.push({ address, cursor: e.key.subarray(prefix.length) });
    }
    return {
      items: out,
      last: rows.length > 0 ? rows[rows.length - 1].key.subarray(prefix.length) : undefined,
      full: rows.length === limit,
    };
  }

  /** Holders of a token, largest balance first. */
  async tokenHolders(
    token: Uint8Array,
    after: { balance: bigint; holder: Uint8Array; id: bigint | null } | undefined,
    limit: number,
  ) {
    const rows = await this.store.range('idxHolderRank', {
      prefix: token,
      after: after
        ? after.id === null
          ? concat(u256(after.balance), after.holder)
          : concat(u256(after.balance), after.holder, u256(after.id))
        : undefined,
      reverse: true,
      limit,
    });
    return rows.map((e) => ({
      balance: readU256(e.key, 20),
      holder: e.key.slice(52, 72),
      id: e.key.length > 72 ? readU256(e.key, 72) : null,
    }));
  }

  /** Every token balance of a holder (an address holds few tokens; capped at `limit`). */
  async balancesOf(holder: Uint8Array, limit: number) {
    const rows = await this.store.range('idxTokenBalance', { prefix: holder, reverse: false, limit });
    return rows.map((e) => ({
      token: e.key.slice(20, 40),
      id: e.key.length > 40 ? readU256(e.key, 40) : null,
      balance: decodeSigned(e.value),
    }));
  }

  /** The balance of one holding (0 when none). */
  async balanceOf(holder: Uint8Array, token: Uint8Array, id: bigint | null): Promise<bigint> {
    return decodeSigned(await this.store.get('idxTokenBalance', keys.tokenBalance(holder, token, id)));
  }

  async hasTokens(holder: Uint8Array): Promise<boolean> {
    return (await this.store.range('idxTokenBalance', { prefix: holder, reverse: false, limit: 1 })).length > 0;
  }

  async totals(): Promise<GlobalRecord> {
    const v = await this.store.get('idxMeta', META_KEYS.global);
    return v ? decodeGlobal(v) : emptyGlobal();
  }

  /** Daily counters from `fromDay` to `toDay` inclusive (missing days absent). */
  async daily(fromDay: number, toDay: number): Promise<Map<number, DailyRecord>> {
    const rows = await this.store.range('idxDaily', {
      prefix: new Uint8Array(0),
      after: u32(toDay + 1),
      reverse: true,
      limit: toDay - fromDay + 1,
    });
    const out = new Map<number, DailyRecord>();
    for (const e of rows) {
      const day = readU32(e.key, 0);
      if (day >= fromDay) out.set(day, decodeDaily(e.value));
    }
    return out;
  }

  /** The last block the index holds. */
  async head(): Promise<{ number: bigint; hash: Uint8Array } | undefined> {
    const v = await this.store.get('idxMeta', META_KEYS.head);
    return v ? { number: readU64(v, 0), hash: v.slice(8, 40) } : undefined;
  }
}
