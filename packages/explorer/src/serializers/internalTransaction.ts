import { type CallFrame, type FlatFrame, parityError } from '@ashlar/core';
import { hexToBytes } from '@ethereumjs/util';
import type { Facts } from '../Explorer.js';
import { refOf } from './addressRef.js';
import { dec, hex, isoTime } from './format.js';

/** One internal transaction with where it sits: the frame, its transaction and block. */
export interface InternalView {
  flat: FlatFrame;
  /** Position in the transaction's depth-first frame list (Blockscout's `index`; 0 is the top frame). */
  index: number;
  /** Position among all frames of the block (Blockscout's `block_index`). */
  blockIndex: number;
  txIndex: number;
  txHash: Uint8Array;
  block: bigint;
  timestamp: bigint;
}

const isCreate = (f: CallFrame): boolean => f.type === 'CREATE' || f.type === 'CREATE2';
const addr = (a: string): Uint8Array => hexToBytes(a as `0x${string}`);

/**
 * An internal transaction as Blockscout 10 serves it (InternalTransaction schema), plus spec
 * §2.5's `block` beside Blockscout's `block_number`. `type` is the call type for calls
 * (`call`, `delegatecall`, `staticcall`, `callcode`), else `create`, `create2`, `selfdestruct`;
 * `error` is OpenEthereum's wording (`Reverted`, `Out of gas`), as Blockscout stores it.
 */
export function internalTxJson(v: InternalView, facts: Facts) {
  const f = v.flat.frame;
  const create = isCreate(f);
  const error = f.error === undefined ? null : parityError(f.error);
  return {
    index: v.index,
    block_index: v.blockIndex,
    block: Number(v.block),
    block_number: Number(v.block),
    timestamp: isoTime(v.timestamp),
    transaction_hash: hex(v.txHash),
    transaction_index: v.txIndex,
    type: f.type.toLowerCase(),
    from: refOf(addr(f.from), facts),
    to: create || f.to === '' ? null : refOf(addr(f.to), facts),
    created_contract: create && error === null && f.to !== '' ? refOf(addr(f.to), facts) : null,
    value: dec(f.value),
    gas_limit: f.type === 'SELFDESTRUCT' ? null : dec(f.gas),
    success: error === null,
    error,
  };
}

/**
 * How many internal transactions a transaction's frames make, as Blockscout lists them: every
 * frame but a top-level call (a creation's own `create` counts).
 */
export function listedFrameCount(top: CallFrame | undefined): number {
  if (!top) return 0;
  const below = (f: CallFrame): number => f.calls.reduce((n, c) => n + 1 + below(c), 0);
  return below(top) + (isCreate(top) ? 1 : 0);
}

/** Addresses an internal transaction names (for the page's `is_contract` facts). */
export function internalAddresses(v: InternalView): Uint8Array[] {
  const f = v.flat.frame;
  return f.to === '' ? [addr(f.from)] : [addr(f.from), addr(f.to)];
}

const qty = (n: bigint): string => `0x${n.toString(16)}`;

/**
 * A transaction's call frames as Parity/OpenEthereum traces, the way Blockscout's `raw-trace`
 * renders its internal transactions: calls with `callType`, creations with `init` and a result
 * holding `address` and `code`, self-destructs as `suicide` with `address`, `balance` and
 * `refundAddress`; a failed frame carries `error` instead of `result`.
 */
export function rawTraceJson(frames: FlatFrame[]) {
  return frames.map(({ frame: f, traceAddress }) => {
    const base = { traceAddress, subtraces: f.calls.length };
    if (f.type === 'SELFDESTRUCT') {
      return {
        type: 'suicide',
        action: { address: f.from, balance: qty(f.value), refundAddress: f.to },
        ...base,
      };
    }
    const outcome =
      f.error !== undefined
        ? { error: parityError(f.error) }
        : isCreate(f)
          ? { result: { address: f.to, code: hex(f.output), gasUsed: qty(f.gasUsed) } }
          : { result: { gasUsed: qty(f.gasUsed), output: hex(f.output) } };
    if (isCreate(f)) {
      return {
        type: f.type.toLowerCase(),
        action: { from: f.from, gas: qty(f.gas), init: hex(f.input), value: qty(f.value) },
        ...outcome,
        ...base,
      };
    }
    return {
      type: 'call',
      action: {
        callType: f.type.toLowerCase(),
        from: f.from,
        to: f.to,
        input: hex(f.input),
        gas: qty(f.gas),
        value: qty(f.value),
      },
      ...outcome,
      ...base,
    };
  });
}
