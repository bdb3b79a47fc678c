import { AshlarError, ErrorCodes, ExecutionDeadline, type KernelServices } from '@ashlar/core';
import type { VM } from '@ethereumjs/vm';

/**
 * The time limit of one request that executes code: the node's call timeout (`callTimeoutMs`,
 * geth's `--rpc.evmtimeout`) or the request's own shorter `timeout` (a tracer option), as geth
 * picks the shorter of the two. 0: none.
 */
export function timeLimitMs(services: KernelServices, requestedMs?: number): number {
  const node = services.options.rpc.callTimeoutMs;
  if (requestedMs === undefined || requestedMs <= 0) return node;
  return node > 0 ? Math.min(node, requestedMs) : requestedMs;
}

/** geth's words when a trace runs out of time. */
export const executionTimeout = (): AshlarError => new AshlarError(ErrorCodes.EXECUTION, 'execution timeout');

/** geth's words when a call (eth_call, eth_simulateV1) runs out of time: `execution aborted (timeout = 5s)`. */
export const callAborted = (ms: number): AshlarError =>
  new AshlarError(
    ErrorCodes.EXEC_TIMEOUT,
    `execution aborted (timeout = ${ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`})`,
  );

/**
 * Runs `fn` with `vm`'s loop and call opcodes timed (ExecutionDeadline): past `ms` the running
 * code fails as out of gas, the request answers `execution timeout`, and meanwhile the code
 * yields to the event loop every 10 ms. One deadline for the whole request: a block replay or
 * a simulation of many calls shares it.
 */
export async function underTimeLimit<T>(
  vm: VM,
  ms: number,
  fn: () => Promise<T>,
  onTimeout: (ms: number) => AshlarError = executionTimeout,
): Promise<T> {
  if (ms <= 0) return fn();
  const deadline = new ExecutionDeadline(ms);
  const disarm = deadline.arm(vm.evm as Parameters<ExecutionDeadline['arm']>[0]);
  try {
    const out = await fn();
    if (deadline.timedOut) throw onTimeout(ms);
    return out;
  } catch (e) {
    throw deadline.timedOut ? onTimeout(ms) : e;
  } finally {
    disarm();
  }
}

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`"2s"`, `"500ms"`, `"1m30s"`), as geth's tracer `timeout` takes it, in ms; undefined when malformed. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let at = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    total += Number(m[1]) * UNITS[m[2]];
    at = re.lastIndex;
  }
  return at === text.length && at > 0 ? total : undefined;
}
