import { describe, expect, it } from 'vitest';
import { createNode } from 'ashlar';

// A batch's answers are serialised once: the size check keeps the text, and transports reuse it.
describe('a batch answer serialised once', () => {
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
    { jsonrpc: '2.0', id: 'two', method: 'eth_getBlockByNumber', params: ['0x0', true] },
    { jsonrpc: '2.0', id: 3, method: 'no_suchMethod' },
  ];

  it('gives the text JSON.stringify gives, for the very answers handle returned', async () => {
    const k = await createNode();
    try {
      const answers = await k.handle(batch);
      expect(k.jsonOf(answers)).toBe(JSON.stringify(answers));
      // Another array with the same content was not serialised by the engine.
      expect(k.jsonOf(Array.isArray(answers) ? [...answers] : answers)).toBeUndefined();
      expect(k.jsonOf(await k.handle(batch[0]))).toBeUndefined();
    } finally {
      await k.close();
    }
  });

  it('has no text when the size check is off (maxResponseBytes 0)', async () => {
    const k = await createNode({ rpc: { maxResponseBytes: 0 } });
    try {
      expect(k.jsonOf(await k.handle(batch))).toBeUndefined();
    } finally {
      await k.close();
    }
  });
});
