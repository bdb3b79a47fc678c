import { type CallFrame, type CallType, hasErrorInInternalFrames } from '../trace/callFrames.js';
import { hexBytes } from '../trace/hexBytes.js';

/** One internal transaction: a call frame of a transaction, as Blockscout lists them. */
export interface InternalRow {
  txIndex: number;
  /** Position of the frame in the transaction's depth-first frame list (0: the top frame). */
  index: number;
  type: CallType;
  from: Uint8Array;
  /** Callee or self-destruct beneficiary; null for a creation. */
  to: Uint8Array | null;
  /** Address a CREATE/CREATE2 made (also when it failed). */
  created: Uint8Array | null;
  value: bigint;
  /** The frame and every frame above it succeeded: what it did (a contract it created) stayed. */
  effective: boolean;
}

const isCreate = (t: CallType): boolean => t === 'CREATE' || t === 'CREATE2';
const bytes = (a: string): Uint8Array => hexBytes(a);

/**
 * The internal transactions of one transaction: every frame in depth-first order except a top
 * frame that is a call — Blockscout keeps `(type = call and index > 0) or type != call`, so a
 * contract creation's own CREATE (index 0) is listed and a plain call's top frame is not.
 */
export function internalRows(root: CallFrame, txIndex: number): { items: InternalRow[]; internalError: boolean } {
  const items: InternalRow[] = [];
  let index = 0;
  const walk = (f: CallFrame, parentOk: boolean): void => {
    const ok = parentOk && f.error === undefined;
    const create = isCreate(f.type);
    if (index > 0 || create) {
      items.push({
        txIndex,
        index,
        type: f.type,
        from: bytes(f.from),
        to: create || f.to === '' ? null : bytes(f.to),
        created: create && f.to !== '' ? bytes(f.to) : null,
        value: f.value,
        effective: ok,
      });
    }
    index++;
    for (const c of f.calls) walk(c, ok);
  };
  walk(root, true);
  return { items, internalError: hasErrorInInternalFrames(root) };
}
