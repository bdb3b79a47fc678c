import { toData, toQuantity } from '@ashlar/core';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type AccountState, StateCollector, isZeroWord } from './stateCollector.js';
import type { TxContext, TxTracer } from './tracer.js';

/** An account of geth's prestateTracer; empty fields omitted as there (`nonce` a JSON number). */
export interface PrestateAccount {
  balance?: string;
  code?: string;
  /** geth 1.16.3+ (go-ethereum#32391): the code's keccak256, for accounts with code (also under `disableCode`). */
  codeHash?: string;
  nonce?: number;
  storage?: Record<string, string>;
}

export type PrestateResult =
  | Record<string, PrestateAccount>
  | { post: Record<string, PrestateAccount>; pre: Record<string, PrestateAccount> };

interface Options {
  diffMode: boolean;
  disableCode: boolean;
  disableStorage: boolean;
}

function full(a: AccountState, o: Options): PrestateAccount {
  const out: PrestateAccount = { balance: toQuantity(a.balance) };
  if (!o.disableCode && a.code.length > 0) out.code = toData(a.code);
  if (a.code.length > 0) out.codeHash = toData(keccak_256(a.code));
  if (a.nonce > 0n) out.nonce = Number(a.nonce);
  if (!o.disableStorage && a.storage.size > 0) out.storage = Object.fromEntries(a.storage);
  return out;
}

/**
 * geth's `prestateTracer` (eth/tracers/native/prestate.go): the touched accounts before the
 * transaction; with `diffMode`, `{pre, post}` holding only what changed — `pre` the changed
 * accounts' earlier state (changed slots only), `post` the changed fields' new values (a cleared
 * slot and a self-destructed account absent from `post`).
 */
export class PrestateTracer implements TxTracer<PrestateResult> {
  private readonly collector = new StateCollector();

  constructor(private readonly options: Options) {}

  begin(vm: VM, ctx: TxContext): Promise<void> {
    return this.collector.begin(vm, ctx);
  }

  async end(vm: VM, _r: RunTxResult): Promise<PrestateResult> {
    const c = this.collector;
    c.check();
    const o = this.options;
    // A contract this transaction created had no prestate (unless something was there before).
    const keep = (addr: string, a: AccountState) => !(c.created.has(addr) && !a.exists);
    if (!o.diffMode) {
      const out: Record<string, PrestateAccount> = {};
      for (const [addr, a] of [...c.pre].sort(byKey)) if (keep(addr, a)) out[addr] = full(a, o);
      return out;
    }
    const post = await c.post(vm);
    const pre: Record<string, PrestateAccount> = {};
    const postOut: Record<string, PrestateAccount> = {};
    for (const [addr, before] of [...c.pre].sort(byKey)) {
      const after = post.get(addr);
      if (!after) continue;
      const changedSlots = [...before.storage].filter(([k, v]) => after.storage.get(k) !== v);
      const modified =
        before.balance !== after.balance ||
        before.nonce !== after.nonce ||
        toData(before.code) !== toData(after.code) ||
        changedSlots.length > 0;
      if (!modified) continue;
      if (keep(addr, before)) {
        const p = full({ ...before, storage: new Map(changedSlots.filter(([, v]) => !isZeroWord(v))) }, o);
        pre[addr] = p;
      }
      if (c.destructed.has(addr) && !after.exists) continue;
      const a: PrestateAccount = {};
      if (before.balance !== after.balance) a.balance = toQuantity(after.balance);
      const codeChanged = toData(before.code) !== toData(after.code);
      if (!o.disableCode && codeChanged) a.code = toData(after.code);
      if (codeChanged && after.code.length > 0) a.codeHash = toData(keccak_256(after.code));
      if (before.nonce !== after.nonce) a.nonce = Number(after.nonce);
      const slots = changedSlots
        .map(([k]) => [k, after.storage.get(k) ?? ''] as const)
        .filter(([, v]) => !isZeroWord(v));
      if (!o.disableStorage && slots.length > 0) a.storage = Object.fromEntries(slots);
      postOut[addr] = a;
    }
    return { post: postOut, pre };
  }

  dispose(vm: VM): void {
    this.collector.dispose(vm);
  }
}

const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
