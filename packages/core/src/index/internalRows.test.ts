import { hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { CallFrame } from '../trace/callFrames.js';
import { internalRows } from './internalRows.js';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const C = '0x00000000000000000000000000000000000000cc';
const D = '0x00000000000000000000000000000000000000dd';
const frame = (f: Partial<CallFrame> & Pick<CallFrame, 'type' | 'from' | 'to'>): CallFrame => ({
  value: 0n,
  gas: 0n,
  gasUsed: 0n,
  input: new Uint8Array(0),
  output: new Uint8Array(0),
  depth: 0,
  calls: [],
  logs: [],
  ...f,
});
const b = (a: string) => hexToBytes(a as `0x${string}`);

describe('internalRows', () => {
  it('skips a top-level call, numbers frames depth-first, and marks what a failed parent undid', () => {
    const root = frame({
      type: 'CALL',
      from: A,
      to: B,
      calls: [
        frame({ type: 'CALL', from: B, to: C, error: 'revert', calls: [frame({ type: 'CREATE', from: C, to: D })] }),
        frame({ type: 'CALL', from: B, to: C, value: 5n }),
      ],
    });
    const { items, internalError } = internalRows(root, 3);
    expect(internalError).toBe(true);
    expect(items.map((r) => [r.index, r.type, r.effective, r.txIndex])).toEqual([
      [1, 'CALL', false, 3],
      // Created under a reverted call: listed, but the contract does not exist.
      [2, 'CREATE', false, 3],
      [3, 'CALL', true, 3],
    ]);
    expect(items[1]).toMatchObject({ from: b(C), to: null, created: b(D) });
    expect(items[2]).toMatchObject({ from: b(B), to: b(C), created: null, value: 5n });
  });

  it('lists a creation transaction’s own CREATE at index 0', () => {
    const { items, internalError } = internalRows(frame({ type: 'CREATE', from: A, to: B }), 0);
    expect(internalError).toBe(false);
    expect(items).toEqual([
      { txIndex: 0, index: 0, type: 'CREATE', from: b(A), to: null, created: b(B), value: 0n, effective: true },
    ]);
  });
});
