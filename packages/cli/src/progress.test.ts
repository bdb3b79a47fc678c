import { describe, expect, it } from 'vitest';
import { importProgress } from './progress.js';

function sink(isTTY: boolean) {
  let text = '';
  const write = (s: string): boolean => {
    text += s;
    return true;
  };
  const stream = { isTTY, write } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

describe('importProgress', () => {
  it('draws a bar on a terminal and ends its line', () => {
    const s = sink(true);
    const p = importProgress(s.stream);
    p.update({ done: 54, total: 54, number: 54n });
    p.done('imported 54 blocks');
    expect(s.text()).toBe(`\r[${'#'.repeat(30)}] 54/54 blocks (block 54)\nimported 54 blocks\n`);
  });

  it('writes a line every `every` blocks elsewhere, and no bar', () => {
    const s = sink(false);
    const p = importProgress(s.stream, 2);
    for (let i = 1; i <= 5; i++) p.update({ done: i, total: 5, number: BigInt(i) });
    p.done('imported 5 blocks');
    expect(s.text()).toBe('import: 2/5 blocks (block 2)\nimport: 4/5 blocks (block 4)\nimported 5 blocks\n');
  });
});
