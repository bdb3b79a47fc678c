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
 * `--always-sparkplug`: every function gets V8's baseline (Sparkplug) code on its first call
 * instead of running in the bytecode interpreter until it is found warm. Measured on fresh nodes
 * under the peers' harness (2 shared cores, quiet machine, 3 runs each, node flag and this
 * runtime setting alike): 16 `eth_blockNumber`s in flight 13,300-15,400 -> 18,200-22,100 req/s
 * at half the node CPU (200 -> 100-120 ms per 3,000 requests); `eth_call` balanceOf
 * 4,280-4,820 -> 4,350-4,820/s, receipts, blocks, transfers and startup (~0.95 s to the first
 * answer) unchanged; RSS at the end +4-7 MiB; a warmed node (4th repetition) the same. An earlier
 * measurement (session 6) saw reads lose as much as 16-in-flight gained; with the call path's
 * deopts gone since, they do not. `--no-lazy-feedback-allocation` is left out (it raised 16 in
 * flight too but lowered receipts and eth_call, session 6).
 *
 * Lower TurboFan inlining budgets (`--max-inlined-bytecode-size-cumulative`, V8's default 920)
 * are left out. Re-measured in session 15 (fresh nodes under the peers' harness, W1-W5, five
 * alternating runs each, medians, 2026-11-27): budgets of 50, 150 and 300 took the node CPU of the
 * thousand automined transfers from 1,050 to 980-1,000 ms (V8 compiled 193 smaller functions in
 * 279-302 ms instead of ~141 in 405-445) and the whole run's from 5,460 to 5,150-5,360 ms, but
 * the JavaScript thread ran the less inlined code ~40 µs per transfer slower: transfers
 * 1,482 -> 1,336-1,413 tx/s, `eth_call` 5,990 -> 5,340-5,480/s. On a machine with a core to
 * spare for the compiler that is a slower node for less CPU; sessions 6-12 saw the same trade
 * (fresh transfers -4-6% CPU, a warmed node's eth_call -10%).
 */
export const JIT_FLAGS: readonly string[] = ['--always-sparkplug'];

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
