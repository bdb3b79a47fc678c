import { describe, expect, it } from 'vitest';
import { replyPolling } from './replyPolling.js';

/** A clock that moves 30 µs per loop turn, and a queue standing in for setImmediate. */
function fakeLoop() {
  let t = 0;
  const queue: (() => void)[] = [];
  return {
    now: () => t,
    schedule: (turn: () => void) => {
      queue.push(turn);
    },
    queue,
    /** Runs queued turns until none is left; returns how many ran. */
    drain(): number {
      let n = 0;
      while (queue.length > 0) {
        t += 0.03;
        (queue.shift() as () => void)();
        n++;
      }
      return n;
    },
  };
}

describe('replyPolling', () => {
  it('keeps the loop turning for the window after a poke, then lets it sleep', () => {
    const loop = fakeLoop();
    const polling = replyPolling(100, loop.now, loop.schedule);
    polling.poke();
    expect(loop.queue).toHaveLength(1);
    // 100 µs at 30 µs a turn: turns at 30, 60, 90 reschedule, the one at 120 does not.
    expect(loop.drain()).toBe(4);
    expect(polling.turns).toBe(4);
    expect(loop.queue).toHaveLength(0);
  });

  it('a poke while the loop is turning moves the end of the window without a second chain', () => {
    const loop = fakeLoop();
    const polling = replyPolling(100, loop.now, loop.schedule);
    polling.poke();
    (loop.queue.shift() as () => void)(); // one turn at t = 0: still inside, reschedules
    polling.poke();
    polling.poke();
    expect(loop.queue).toHaveLength(1);
    expect(loop.drain()).toBe(4);
  });

  it('no window after an answer that took longer than maxHandledUs to make; one after a quicker answer', () => {
    const loop = fakeLoop();
    const polling = replyPolling(100, loop.now, loop.schedule, 500);
    polling.poke(0.9); // 900 µs: a mined transaction
    expect(loop.queue).toHaveLength(0);
    polling.poke(0.5); // exactly the limit still polls
    expect(loop.queue).toHaveLength(1);
    expect(loop.drain()).toBe(4);
    polling.poke(0.12);
    expect(loop.drain()).toBe(4);
  });

  it('by default, an answer of 300 µs (a compiled node mining a transfer takes 400-600) opens no window; one of 200 does', () => {
    const loop = fakeLoop();
    const polling = replyPolling(100, loop.now, loop.schedule);
    polling.poke(0.3);
    expect(loop.queue).toHaveLength(0);
    polling.poke(0.2);
    expect(loop.drain()).toBe(4);
  });

  it('a slow answer does not cut a window a quicker one opened', () => {
    const loop = fakeLoop();
    const polling = replyPolling(100, loop.now, loop.schedule, 500);
    polling.poke(0.1);
    polling.poke(2);
    expect(loop.drain()).toBe(4);
  });

  it('a window of 0 never schedules anything', () => {
    const loop = fakeLoop();
    const polling = replyPolling(0, loop.now, loop.schedule);
    polling.poke();
    expect(loop.queue).toHaveLength(0);
  });

  it('on the real event loop: turns during the window, none once it is over', async () => {
    const polling = replyPolling(2_000);
    polling.poke();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const after = polling.turns;
    expect(after).toBeGreaterThan(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(polling.turns).toBe(after);
  });
});
