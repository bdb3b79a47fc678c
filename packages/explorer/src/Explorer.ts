import {
  type IndexQueries,
  type IndexService,
  type KernelServices,
  type PendingTx,
  type StoredBlock,
  type StoredReceipt,
  type TokenRecord,
  type TxKind,
  type TxPosition,
  decodeTransfers,
} from '@ashlar/core';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import type { BlockId } from './http/params.js';
import type { SmartContracts } from './verify/SmartContracts.js';

/** A mined transaction with everything its views read. */
export interface MinedTx {
  kind: 'mined';
  sb: StoredBlock;
  index: number;
  tx: TypedTransaction;
  sender: Uint8Array;
  receipt: StoredReceipt;
  /** Block-wide index of the transaction's first log. */
  logBase: number;
}

export interface PoolTx {
  kind: 'pending';
  ptx: PendingTx;
  insertedAt: Date;
}

export type AnyTx = MinedTx | PoolTx;

export interface ExplorerOptions {
  /** `/config/json-rpc-url` (the CLI sets it to the server's URL once it listens). */
  jsonRpcUrl?: string | null;
}

/** Facts about addresses and tokens a page needs, loaded in bulk before rendering. */
export interface Facts {
  contracts: Set<string>;
  tokens: Map<string, TokenRecord>;
  kinds: Map<string, TxKind[]>;
  /** Mined transactions (block:index) with a failed call frame below the top one. */
  internalErrors: Set<string>;
  head: bigint;
  /** Verified contracts and known proxies: names, `is_verified`, ABIs for decoding. */
  sc?: SmartContracts;
}

const posKey = (block: bigint, index: number): string => `${block}:${index}`;

/**
 * The explorer's view of one kernel: blocks and transactions from the chain, lists and counters
 * from the index, and bulk loaders so that a page of 50 items costs a handful of `getMany`s.
 */
export class Explorer {
  jsonRpcUrl: string | null;
  /** Verified contracts (set by the plugin once their store is open). */
  contracts: SmartContracts | undefined;
  /** When a pooled transaction without its arrival stamped (not made by TxService) was first seen. */
  private readonly arrivals = new Map<string, Date>();
  private readonly logBases = new WeakMap<StoredBlock, number[]>();

  constructor(
    readonly services: KernelServices,
    readonly index: IndexService,
    options: ExplorerOptions = {},
  ) {
    this.jsonRpcUrl = options.jsonRpcUrl ?? null;
    // No listener per pooled transaction: TxService stamps each with its arrival (arrivedAt).
  }

  get q(): IndexQueries {
    return this.index.queries;
  }

  get head(): StoredBlock {
    return this.services.chain.head;
  }

  block(n: bigint): Promise<StoredBlock | undefined> {
    return this.services.chain.getBlock(n);
  }

  async blockById(id: BlockId): Promise<StoredBlock | undefined> {
    return id.kind === 'number' ? this.block(id.number) : this.services.chain.getBlockByHash(id.hash);
  }

  private logBase(sb: StoredBlock, index: number): number {
    let bases = this.logBases.get(sb);
    if (!bases) {
      bases = [];
      let n = 0;
      for (const r of sb.receipts) {
        bases.push(n);
        n += r.logs.length;
      }
      this.logBases.set(sb, bases);
    }
    return bases[index] ?? 0;
  }

  minedAt(sb: StoredBlock, index: number): MinedTx | undefined {
    const tx = sb.block.transactions[index];
    const receipt = sb.receipts[index];
    if (!tx || !receipt) return undefined;
    return { kind: 'mined', sb, index, tx, sender: sb.senders[index].bytes, receipt, logBase: this.logBase(sb, index) };
  }

  async txsAt(positions: TxPosition[]): Promise<MinedTx[]> {
    const out: MinedTx[] = [];
    for (const p of positions) {
      const sb = await this.block(p.block);
      const t = sb && this.minedAt(sb, p.index);
      if (t) out.push(t);
    }
    return out;
  }

  async txByHash(hash: Uint8Array): Promise<AnyTx | undefined> {
    const loc = await this.services.chain.getTransactionLocation(hash);
    if (loc) return this.minedAt(loc.block, loc.index);
    const ptx = this.services.mempool.get(bytesToHex(hash));
    return ptx ? this.pooled(ptx) : undefined;
  }

  pooled(ptx: PendingTx): PoolTx {
    if (ptx.arrivedAt !== undefined) return { kind: 'pending', ptx, insertedAt: new Date(ptx.arrivedAt) };
    let at = this.arrivals.get(ptx.hashHex);
    if (!at) {
      // Forget the ones that left the pool; it is small, this keeps the map so.
      if (this.arrivals.size > 4 * (this.services.mempool.size + 64)) {
        for (const h of this.arrivals.keys()) if (!this.services.mempool.get(h)) this.arrivals.delete(h);
      }
      at = new Date();
      this.arrivals.set(ptx.hashHex, at);
    }
    return { kind: 'pending', ptx, insertedAt: at };
  }

  /** Pooled transactions, newest arrival first. */
  pool(): PoolTx[] {
    return this.services.mempool
      .all()
      .sort((a, b) => b.seq - a.seq)
      .map((p) => this.pooled(p));
  }

  /** Loads what rendering `txs` (and extra addresses) needs: contract flags, tokens, kinds. */
  async facts(txs: readonly AnyTx[], extra: Iterable<Uint8Array> = []): Promise<Facts> {
    const addresses = new Map<string, Uint8Array>();
    const add = (a: Uint8Array | null | undefined) => {
      if (a) addresses.set(bytesToHex(a), a);
    };
    for (const a of extra) add(a);
    const tokenAddrs = new Map<string, Uint8Array>();
    const mined: MinedTx[] = [];
    for (const t of txs) {
      if (t.kind === 'pending') {
        add(t.ptx.sender.bytes);
        add(t.ptx.tx.to?.bytes);
        continue;
      }
      mined.push(t);
      add(t.sender);
      add(t.tx.to?.bytes);
      add(t.receipt.contractAddress);
      for (const log of t.receipt.logs) {
        for (const d of decodeTransfers(log)) {
          tokenAddrs.set(bytesToHex(d.token), d.token);
          add(d.from);
          add(d.to);
        }
      }
    }
    for (const [k, v] of tokenAddrs) addresses.set(k, v);
    const list = [...addresses.values()];
    const positions = mined.map((t) => ({ block: t.sb.number, index: t.index }));
    const [contracts, tokens, flags] = await Promise.all([
      this.q.contracts(list),
      this.q.tokens(list),
      this.q.txFlags(positions),
    ]);
    const facts: Facts = {
      contracts: new Set(),
      tokens: new Map(),
      kinds: new Map(),
      internalErrors: new Set(),
      head: this.head.number,
      sc: this.contracts,
    };
    list.forEach((a, i) => {
      const h = bytesToHex(a);
      const token = tokens[i];
      if (contracts[i] || token) facts.contracts.add(h);
      if (token) facts.tokens.set(h, token);
    });
    for (const [i, t] of mined.entries()) {
      facts.kinds.set(posKey(t.sb.number, t.index), flags[i].kinds);
      if (flags[i].internalError) facts.internalErrors.add(posKey(t.sb.number, t.index));
    }
    return facts;
  }

  static hasInternalError(facts: Facts, t: MinedTx): boolean {
    return facts.internalErrors.has(posKey(t.sb.number, t.index));
  }

  static kindsOf(facts: Facts, t: MinedTx): TxKind[] | undefined {
    return facts.kinds.get(posKey(t.sb.number, t.index));
  }
}
