import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { encodeTextFrames } from './frames.js';
import { createSerializer } from './serialize.js';

/** ws's frame parser (exported at runtime, not in @types/ws). */
interface FrameReceiver {
  on(event: 'message', fn: (data: Buffer, isBinary: boolean) => void): void;
  write(chunk: Buffer): void;
}
const { Receiver } = ws as unknown as { Receiver: new (o: { isServer: boolean }) => FrameReceiver };

/** Decodes frames with ws's own client-side parser. */
function decode(buf: Buffer): string[] {
  const out: string[] = [];
  const receiver = new Receiver({ isServer: false });
  receiver.on('message', (data: Buffer, isBinary: boolean) => {
    expect(isBinary).toBe(false);
    out.push(data.toString('utf8'));
  });
  receiver.write(buf);
  return out;
}

describe('encodeTextFrames', () => {
  it('writes every length form (7-bit, 16-bit, 64-bit) and multi-byte UTF-8 as ws reads them', () => {
    const texts = ['', 'a', 'x'.repeat(125), 'y'.repeat(126), 'z'.repeat(65_535), 'w'.repeat(65_536), 'ünïcødé ✓ 𝔘'];
    expect(decode(encodeTextFrames(texts))).toEqual(texts);
  });

  it('frames notifications in parts and plain texts alike', () => {
    const s = createSerializer();
    const shared = { number: '0x1', big: 'x'.repeat(300) };
    const messages = [
      s({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xa', result: shared } }),
      s({ jsonrpc: '2.0', id: 1, result: 'ok' }),
      s({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xb', result: shared } }),
    ];
    expect(decode(encodeTextFrames(messages)).map((t) => JSON.parse(t))).toEqual([
      { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xa', result: shared } },
      { jsonrpc: '2.0', id: 1, result: 'ok' },
      { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xb', result: shared } },
    ]);
  });

  it('encodes nothing as an empty buffer', () => {
    expect(encodeTextFrames([]).length).toBe(0);
  });
});
