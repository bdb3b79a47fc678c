/**
 * Keeps the event loop polling for `windowUs` microseconds after each answer, instead of going
 * to sleep in epoll_wait as soon as it has nothing to do.
 *
 * Why: a client that waits for each answer before sending its next request (a test suite, a
 * script, the peers' harness) sends that request tens of microseconds after the answer left.
 * If the node's thread is asleep by then, the kernel has to wake it, and on a virtual machine
 * whose idle vCPUs halt (a KVM/Firecracker guest with guest halt-polling off, as on the machine
 * of the README's figures), that wake-up can cost the round trip as much as the node's own work
 * for an `eth_blockNumber`. A pending immediate makes libuv poll with a zero timeout, so while the
 * window is open the loop turns (one cheap epoll_wait per turn) and picks the request up at once.
 *
 * The cost is CPU, only right after an answer: at most `windowUs` per answer when the next
 * request does not come, nothing at all while the node is idle. `poke` is cheap enough to run on
 * every answer: it moves the window's end and schedules a turn only when none is pending.
 *
 * No window opens after an answer that took longer than `maxHandledUs` to make (a mined
 * transaction, a trace, a long eth_call): there the wake-up is a small share of the round trip
 * and polling bought no throughput (automined transfers under the peers' harness: the same tx/s
 * with and without it), while the client's whole turnaround, up to `windowUs`, was spent spinning
 * on the node's thread, which counts in its CPU per transaction.
 */
/**
 * Answers that took longer than this to make open no polling window. Reads the harness repeats
 * (receipts, blocks, eth_call, eth_blockNumber) are answered in 30-250 µs once compiled. An
 * automined transfer took 700-2,000 µs when the bound was set at 500 µs; it now takes 400-600 µs
 * once compiled, and at 500 the window opened again after most transfers: the harness's W2
 * counted 21 loop turns per transfer on a fresh node and 63 on its third thousand, against 0.6
 * and under 1 at 250.
 */
export const DEFAULT_MAX_HANDLED_US = 250;

export interface ReplyPolling {
  /**
   * Opens (or extends) the polling window from now, unless the answer took longer than
   * `maxHandledUs` to make (`handledMs`: from the request's arrival to its answer; none given: open).
   */
  poke(handledMs?: number): void;
  /** Loop turns made so far (for tests and diagnostics). */
  readonly turns: number;
}

export function replyPolling(
  windowUs: number,
  now: () => number = () => performance.now(),
  schedule: (turn: () => void) => void = setImmediate,
  maxHandledUs: number = DEFAULT_MAX_HANDLED_US,
): ReplyPolling {
  const windowMs = windowUs / 1000;
  const maxHandledMs = maxHandledUs / 1000;
  let until = 0;
  let pending = false;
  let turns = 0;
  const turn = (): void => {
    turns++;
    if (now() < until) schedule(turn);
    else pending = false;
  };
  return {
    poke(handledMs?: number) {
      if (windowMs <= 0 || (handledMs !== undefined && handledMs > maxHandledMs)) return;
      until = now() + windowMs;
      if (pending) return;
      pending = true;
      schedule(turn);
    },
    get turns() {
      return turns;
    },
  };
}
