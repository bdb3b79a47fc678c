import { describe, expect, it } from 'vitest';
import { batchedWrites } from './batchedWrites.js';

describe('batchedWrites', () => {
  it('writes what came within the delay as one write, in order', async () => {
    const writes: string[] = [];
    const out = batchedWrites((t) => writes.push(t), 1, 10);
    out.write('a\n');
    out.write('b\n');
    out.write('c\n');
    expect(writes).toEqual([]);
    await new Promise((r) => setTimeout(r, 40));
    expect(writes).toEqual(['a\nb\nc\n']);
    out.write('d\n');
    out.flush();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes a large burst at once', () => {
    const writes: string[] = [];
    const out = batchedWrites((t) => writes.push(t), 1, 1000);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) out.write(line);
    expect(writes).toEqual([line.repeat(64)]);
    out.flush();
    expect(writes).toHaveLength(1);
  });
});
