import type { Logger } from '../util/logger.js';

/** Reports a long task (the index rebuild) to whoever watches the node start. */
export interface Progress {
  start(label: string, total: number): void;
  update(done: number): void;
  done(): void;
}

const WIDTH = 30;
/** Redraw at most this often: a terminal repaint costs more than indexing a block. */
const REDRAW_MS = 100;

/** A bar on stderr when it is a terminal; otherwise a line at the start and one at the end. */
export function defaultProgress(logger: Logger, stream: NodeJS.WriteStream = process.stderr): Progress {
  let label = '';
  let total = 0;
  let began = 0;
  let drawn = 0;
  const tty = stream.isTTY === true;
  const draw = (done: number) => {
    const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
    const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
    stream.write(`\r${label} [${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${pct}% ${done}/${total} blocks`);
  };
  return {
    start(l, t) {
      label = l;
      total = t;
      began = Date.now();
      logger.info(`${l}: ${t} blocks`);
      if (tty) draw(0);
    },
    update(done) {
      const now = Date.now();
      if (!tty || (now - drawn < REDRAW_MS && done < total)) return;
      drawn = now;
      draw(done);
    },
    done() {
      if (tty) stream.write('\n');
      logger.info(`explorer index ready: ${total} blocks in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    },
  };
}

export const silentProgress: Progress = { start() {}, update() {}, done() {} };
