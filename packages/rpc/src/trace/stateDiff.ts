import { toData, toQuantity } from '@ashlar/core';
import type { AccountState } from '../debug/stateCollector.js';

/** Parity's per-field change: unchanged, born, died, or changed from → to. */
export type Delta<T> = '=' | { '+': T } | { '-': T } | { '*': { from: T; to: T } };

export interface AccountDiff {
  balance: Delta<string>;
  code: Delta<string>;
  nonce: Delta<string>;
  storage: Record<string, Delta<string>>;
}

function delta<T>(before: T | undefined, after: T | undefined): Delta<T> {
  if (before === undefined && after !== undefined) return { '+': after };
  if (before !== undefined && after === undefined) return { '-': before };
  if (before === after || before === undefined || after === undefined) return '=';
  return { '*': { from: before, to: after } };
}

const ZERO_WORD = `0x${'00'.repeat(32)}`;

/**
 * OpenEthereum's `stateDiff` of one transaction: every touched account that changed, each field
 * as `"="`, `{"+": new}` (the account was born), `{"-": old}` (it died) or `{"*": {from, to}}`;
 * storage lists changed slots only.
 */
export function stateDiff(
  pre: Map<string, AccountState>,
  post: Map<string, AccountState>,
): Record<string, AccountDiff> {
  const out: Record<string, AccountDiff> = {};
  for (const [addr, before] of [...pre].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const after = post.get(addr);
    if (!after) continue;
    const b = before.exists ? before : undefined;
    const a = after.exists ? after : undefined;
    if (!b && !a) continue;
    const storage: Record<string, Delta<string>> = {};
    for (const [slot, v0] of before.storage) {
      const v1 = after.storage.get(slot) ?? ZERO_WORD;
      if (b && a) {
        if (v0 !== v1) storage[slot] = { '*': { from: v0, to: v1 } };
      } else if (a && v1 !== ZERO_WORD) storage[slot] = { '+': v1 };
      else if (b && v0 !== ZERO_WORD) storage[slot] = { '-': v0 };
    }
    const diff: AccountDiff = {
      balance: delta(b && toQuantity(b.balance), a && toQuantity(a.balance)),
      code: delta(b && toData(b.code), a && toData(a.code)),
      nonce: delta(b && toQuantity(b.nonce), a && toQuantity(a.nonce)),
      storage,
    };
    const same = diff.balance === '=' && diff.code === '=' && diff.nonce === '=' && Object.keys(storage).length === 0;
    if (!same) out[addr] = diff;
  }
  return out;
}
