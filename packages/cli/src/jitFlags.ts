import { setFlagsFromString } from 'node:v8';

/**
 * V8 compiler flags of the `ashlar` process, set before anything else loads (bin.ts imports this
 * first, beside heapFlags.ts). A dev node spends its first thousands of requests and transactions
 * running code V8 has not optimized yet: each workload of the peers' harness runs on a fresh node,
 * and so does a test suite's. V8 reads these
 * when it compiles a function, so setting them at runtime, before the node's code first runs,
 * works: no re-exec.
 *
 * A flag the user gave (on node's command line or in NODE_OPTIONS) is left alone;
 * ASHLAR_JIT_FLAGS replaces the list (`ASHLAR_JIT_FLAGS=` sets none).
 */
/**
 * None by default: measured on fresh nodes under the peers' harness (2 shared cores, 2 runs each),
 * `--always-sparkplug` and `--no-lazy-feedback-allocation` each raised `eth_blockNumber` with 16
 * requests in flight by ~30% (13-13.8k → 16.7-18.4k/s) but lowered receipts and `eth_call` by
 * about as much, and left transfers unchanged.
 */
export const JIT_FLAGS: readonly string[] = [];

/** The flags to set: JIT_FLAGS or ASHLAR_JIT_FLAGS, less any the user already gave node. */
export function jitFlagsToSet(env: NodeJS.ProcessEnv, execArgv: readonly string[]): string[] {
  const wanted = env.ASHLAR_JIT_FLAGS !== undefined ? env.ASHLAR_JIT_FLAGS.split(/\s+/).filter(Boolean) : JIT_FLAGS;
  const given = [...execArgv, env.NODE_OPTIONS ?? ''].join(' ');
  // The flag's name without --/--no- and with _ as -: node accepts either spelling.
  const name = (flag: string) =>
    flag
      .replace(/^--(no-)?/, '')
      .replace(/=.*$/, '')
      .replace(/_/g, '-');
  return wanted.filter((f) => !given.replace(/_/g, '-').includes(name(f)));
}

for (const flag of jitFlagsToSet(process.env, process.execArgv)) setFlagsFromString(flag);
