import type { Address } from '@ethereumjs/util';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { PendingTx } from './types.js';
import { maxPricePerGas, priorityFee } from './validateTx.js';

/** Same-nonce replacement needs this much more fee (geth's default price bump). */
export const PRICE_BUMP_PERCENT = 10n;

/**
 * Transactions waiting for a block, per sender and nonce. A transaction whose nonce follows
 * the account's nonce (or a run of pending ones) is pending; one behind a gap is queued.
 */
export class MempoolService {
  private readonly bySender = new Map<string, Map<bigint, PendingTx>>();
  private readonly byHash = new Map<string, PendingTx>();
  private seq = 0;

  get size(): number {
    return this.byHash.size;
  }

  get(hashHex: string): PendingTx | undefined {
    return this.byHash.get(hashHex);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** Adds a validated transaction; a same-nonce one must pay ≥10% more in both fee fields. Returns the one it replaced. */
  add(ptx: PendingTx): PendingTx | undefined {
    if (this.byHash.has(ptx.hashHex)) throw new AshlarError(ErrorCodes.ALREADY_KNOWN, 'already known');
    const key = ptx.sender.toString();
    let slots = this.bySender.get(key);
    if (!slots) {
      slots = new Map();
      this.bySender.set(key, slots);
    }
    const prev = slots.get(ptx.tx.nonce);
    if (prev) {
      const bump = (old: bigint) => old + (old * PRICE_BUMP_PERCENT) / 100n;
      const newCap = maxPricePerGas(ptx.tx);
      const oldCap = maxPricePerGas(prev.tx);
      const newTip = tipCap(ptx);
      const oldTip = tipCap(prev);
      if (newCap < bump(oldCap) || newTip < bump(oldTip)) {
        throw new AshlarError(ErrorCodes.REPLACEMENT_UNDERPRICED, 'replacement transaction underpriced');
      }
      this.byHash.delete(prev.hashHex);
    }
    slots.set(ptx.tx.nonce, ptx);
    this.byHash.set(ptx.hashHex, ptx);
    return prev;
  }

  remove(hashHex: string): PendingTx | undefined {
    const ptx = this.byHash.get(hashHex);
    if (!ptx) return undefined;
    this.byHash.delete(hashHex);
    const key = ptx.sender.toString();
    const slots = this.bySender.get(key);
    slots?.delete(ptx.tx.nonce);
    if (slots && slots.size === 0) this.bySender.delete(key);
    return ptx;
  }

  /** Drops every transaction of `sender` with a nonce below `nonce` (they can never be mined). */
  pruneBelow(sender: Address, nonce: bigint): void {
    const slots = this.bySender.get(sender.toString());
    if (!slots) return;
    for (const [n, ptx] of slots) if (n < nonce) this.remove(ptx.hashHex);
  }

  clear(): void {
    this.bySender.clear();
    this.byHash.clear();
  }

  /** Next nonce of `sender` counting its consecutive pending transactions (the `pending` tag). */
  pendingNonce(sender: Address, stateNonce: bigint): bigint {
    const slots = this.bySender.get(sender.toString());
    let n = stateNonce;
    while (slots?.has(n)) n++;
    return n;
  }

  /**
   * Executable transactions split by status, given each sender's account nonce.
   * `pending`: consecutive from the account nonce; `queued`: behind a gap.
   */
  partition(stateNonce: (sender: string) => bigint): { pending: PendingTx[]; queued: PendingTx[] } {
    const pending: PendingTx[] = [];
    const queued: PendingTx[] = [];
    for (const sender of this.bySender.keys()) {
      const slots = this.bySender.get(sender) as Map<bigint, PendingTx>;
      let n = stateNonce(sender);
      // One transaction per sender (every automined block): no array of nonces to sort. Each
      // slot is keyed by its transaction's nonce.
      if (slots.size === 1) {
        const ptx = slots.values().next().value as PendingTx;
        (ptx.tx.nonce === n ? pending : queued).push(ptx);
        continue;
      }
      const nonces = [...slots.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const nonce of nonces) {
        const ptx = slots.get(nonce) as PendingTx;
        if (nonce === n) {
          pending.push(ptx);
          n++;
        } else queued.push(ptx);
      }
    }
    return { pending, queued };
  }

  senders(): string[] {
    return [...this.bySender.keys()];
  }

  all(): PendingTx[] {
    return [...this.byHash.values()];
  }

  /**
   * Orders executable transactions for a block: per sender by nonce, across senders by the
   * tip they pay at `baseFee` (highest first), arrival order among equals.
   */
  static orderForBlock(pending: PendingTx[], baseFee: bigint): PendingTx[] {
    // An automined block's one transaction: nothing to order (and the general code below, not
    // run on that path, is not compiled into it).
    if (pending.length === 1) return [pending[0]];
    const queues = new Map<string, PendingTx[]>();
    for (const p of pending) {
      const k = p.sender.toString();
      const q = queues.get(k);
      if (q) q.push(p);
      else queues.set(k, [p]);
    }
    for (const q of queues.values()) q.sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : 1));
    const out: PendingTx[] = [];
    const heads = [...queues.values()];
    while (heads.length > 0) {
      let best = 0;
      for (let i = 1; i < heads.length; i++) {
        const a = heads[i][0];
        const b = heads[best][0];
        const ta = priorityFee(a.tx, baseFee);
        const tb = priorityFee(b.tx, baseFee);
        if (ta > tb || (ta === tb && a.seq < b.seq)) best = i;
      }
      const q = heads[best];
      out.push(q.shift() as PendingTx);
      if (q.length === 0) heads.splice(best, 1);
    }
    return out;
  }
}

function tipCap(p: PendingTx): bigint {
  const t = p.tx as unknown as { maxPriorityFeePerGas?: bigint; gasPrice?: bigint };
  return t.maxPriorityFeePerGas ?? t.gasPrice ?? 0n;
}
