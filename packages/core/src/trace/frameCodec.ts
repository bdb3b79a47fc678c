import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import { unpaddedBytes } from '../storage/unpaddedBytes.js';
import type { CallFrame, CallType } from './callFrames.js';
import { hexBytes } from './hexBytes.js';

/**
 * Storage encoding of a block's call frames (sublevel `callFrames`, see storage/keys.ts): an RLP
 * list with one item per transaction, an empty list for a transaction without frames, else
 *   [type u8, from (20), to (20 or empty), value, gas, gasUsed, input, output, error, [sub-frames…]]
 * with numbers as minimal big-endian bytes and the error as UTF-8 (empty: none). The top frame's
 * input is the transaction's data, so it is not stored again; depth follows from the nesting.
 * Logs of frames are not stored (receipts hold them).
 */

const TYPES: readonly CallType[] = [
  'CALL',
  'DELEGATECALL',
  'STATICCALL',
  'CALLCODE',
  'CREATE',
  'CREATE2',
  'SELFDESTRUCT',
];
const TYPE_BYTE = new Map(TYPES.map((t, i) => [t, Uint8Array.of(i)]));
const EMPTY = new Uint8Array(0);
const utf8 = new TextEncoder();
const text = new TextDecoder();

type Item = Uint8Array | Item[];

/** The empty list (a frame without sub-frames, a transaction without frames); only read. */
const NO_ITEMS: Item[] = [];

function encodeFrame(f: CallFrame, top: boolean): Item[] {
  // Sub-frames by an indexed loop, and none (every value transfer) without an array and a
  // callback of its own: the same RLP.
  const calls = f.calls;
  let subFrames = NO_ITEMS;
  if (calls.length > 0) {
    subFrames = [];
    for (let i = 0; i < calls.length; i++) subFrames.push(encodeFrame(calls[i], false));
  }
  return [
    TYPE_BYTE.get(f.type) ?? EMPTY,
    hexBytes(f.from),
    f.to === '' ? EMPTY : hexBytes(f.to),
    unpaddedBytes(f.value),
    unpaddedBytes(f.gas),
    unpaddedBytes(f.gasUsed),
    top ? EMPTY : f.input,
    f.output,
    f.error === undefined ? EMPTY : utf8.encode(f.error),
    subFrames,
  ];
}

/** The frames of a block's transactions, in transaction order. */
export function encodeBlockFrames(frames: readonly (CallFrame | undefined)[]): Uint8Array {
  const items: Item[] = [];
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i];
    items.push(f ? encodeFrame(f, true) : NO_ITEMS);
  }
  return RLP.encode(items);
}

function decodeFrame(item: Item[], depth: number, input: Uint8Array | undefined): CallFrame {
  const [type, from, to, value, gas, gasUsed, data, output, error, calls] = item as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Item[][],
  ];
  const frame: CallFrame = {
    type: TYPES[type[0] ?? 0] ?? 'CALL',
    from: bytesToHex(from),
    to: to.length === 0 ? '' : bytesToHex(to),
    value: bytesToBigInt(value),
    gas: bytesToBigInt(gas),
    gasUsed: bytesToBigInt(gasUsed),
    input: input ?? data,
    output,
    depth,
    calls: calls.map((c) => decodeFrame(c, depth + 1, undefined)),
    logs: [],
  };
  if (error.length > 0) frame.error = text.decode(error);
  return frame;
}

/** Inverse of encodeBlockFrames; `inputs[i]` is transaction i's data (its top frame's input). */
export function decodeBlockFrames(bytes: Uint8Array, inputs: readonly Uint8Array[]): (CallFrame | undefined)[] {
  const list = RLP.decode(bytes) as unknown as Item[][];
  return list.map((item, i) => (item.length === 0 ? undefined : decodeFrame(item, 0, inputs[i] ?? EMPTY)));
}
