import type { ImportProgress } from '@ashlar/core';

export interface ProgressSink {
  update(p: ImportProgress): void;
  /** Ends the bar (its line) and prints the closing line. */
  done(line: string): void;
}

const BAR_WIDTH = 30;

/**
 * Import progress: a redrawn bar on a terminal; elsewhere (logs, CI) a line every `every`
 * blocks, so a long import still shows it is alive without flooding the log.
 */
export function importProgress(out: NodeJS.WriteStream, every = 1000): ProgressSink {
  const tty = out.isTTY === true;
  let drawn = false;
  let lastDraw = 0;
  return {
    update(p) {
      if (tty) {
        const now = Date.now();
        // Redraw at most ~20 times a second: a fast import would spend its time printing.
        if (p.done !== p.total && now - lastDraw < 50) return;
        lastDraw = now;
        const filled = p.total === 0 ? BAR_WIDTH : Math.round((p.done / p.total) * BAR_WIDTH);
        out.write(
          `\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${p.done}/${p.total} blocks (block ${p.number})`,
        );
        drawn = true;
      } else if (p.done % every === 0) {
        out.write(`import: ${p.done}/${p.total} blocks (block ${p.number})\n`);
      }
    },
    done(line) {
      if (drawn) out.write('\n');
      out.write(`${line}\n`);
    },
  };
}
