import { describe, expect, it } from 'vitest';
import type { CallFrame } from './callFrames.js';
import { decodeBlockFrames, encodeBlockFrames } from './frameCodec.js';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const C = '0x00000000000000000000000000000000000000cc';

const frame = (f: Partial<CallFrame> & Pick<CallFrame, 'type' | 'from' | 'to' | 'depth'>): CallFrame => ({
  value: 0n,
  gas: 0n,
  gasUsed: 0n,
  input: new Uint8Array(0),
  output: new Uint8Array(0),
  calls: [],
  logs: [],
  ...f,
});

describe('frameCodec', () => {
  const input = Uint8Array.of(0xde, 0xad, 0xbe, 0xef);
  const tree = frame({
    type: 'CALL',
    from: A,
    to: B,
    depth: 0,
    value: 10n ** 18n,
    gas: 978_784n,
    gasUsed: 21_000n,
    input,
    output: Uint8Array.of(1),
    calls: [
      frame({ type: 'DELEGATECALL', from: B, to: C, depth: 1, gas: 5000n, input: Uint8Array.of(9), error: 'revert' }),
      frame({ type: 'CREATE2', from: B, to: C, depth: 1, gas: 70_000n, gasUsed: 70_000n, error: 'out of gas' }),
      frame({
        type: 'CALL',
        from: B,
        to: C,
        depth: 1,
        calls: [frame({ type: 'SELFDESTRUCT', from: C, to: A, depth: 2, value: 2n })],
      }),
      frame({ type: 'CREATE', from: B, to: '', depth: 1 }),
    ],
  });

  it('round-trips a tree of frames, restoring the top input from the transaction and depth from nesting', () => {
    const bytes = encodeBlockFrames([tree, undefined]);
    const [back, none] = decodeBlockFrames(bytes, [input, new Uint8Array(0)]);
    expect(none).toBeUndefined();
    expect(back).toEqual(tree);
  });

  it('stores a value transfer’s frame in the layout the storage format names, byte for byte', () => {
    const transfer = frame({ type: 'CALL', from: A, to: B, depth: 0, value: 1n, gas: 0x5208n, gasUsed: 0n });
    // [[type 0 (one byte), from (20), to (20), value 0x01, gas 0x5208, gasUsed (empty), input (empty), output (empty), error (empty), []], []]
    const item = ['00', `94${A.slice(2)}`, `94${B.slice(2)}`, '01', '825208', '80', '80', '80', '80', 'c0'].join('');
    const frameList = `${(0xc0 + item.length / 2).toString(16)}${item}`;
    const payload = `${frameList}c0`;
    const expected = `${(0xc0 + payload.length / 2).toString(16)}${payload}`;
    expect(Buffer.from(encodeBlockFrames([transfer, undefined])).toString('hex')).toBe(expected);
  });

  it('does not store the top frame’s input again (the transaction holds it)', () => {
    const big = { ...tree, input: new Uint8Array(10_000).fill(7), calls: [] };
    expect(encodeBlockFrames([big]).length).toBeLessThan(100);
  });
});
