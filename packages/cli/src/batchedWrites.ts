import { writeSync } from 'node:fs';

/**
 * Coalesces what is written within `delayMs` into one write. Automine prints a line per block,
 * and a test suite mines hundreds of blocks a second: one stdout write each cost about 1.5% of
 * an automined transaction's CPU. Lines reach the terminal at most `delayMs` late; whatever is
 * pending when the process exits is written synchronously first.
 */
export function batchedWrites(
  write: (text: string) => void,
  fd: number,
  delayMs = 20,
): { write: (text: string) => void; flush: () => void } {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  process.on('exit', () => {
    if (pending === '') return;
    try {
      writeSync(fd, pending);
    } catch {
      // stdout already closed: nothing to save
    }
    pending = '';
  });
  return {
    write: (text) => {
      pending += text;
      // Large bursts go out at once rather than growing one string without bound.
      if (pending.length >= 64 * 1024) flush();
      else timer ??= setTimeout(flush, delayMs).unref();
    },
    flush,
  };
}
