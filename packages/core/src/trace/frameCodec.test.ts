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

  it('does not store the top frame’s input again (the transaction holds it)', () => {
    const big = { ...tree, input: new Uint8Array(10_000).fill(7), calls: [] };
    expect(encodeBlockFrames([big]).length).toBeLessThan(100);
  });
});
