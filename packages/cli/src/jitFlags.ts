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
 * `--max-inlined-bytecode-size-cumulative=300` (V8's default 920): TurboFan inlines at most 300
 * bytes of callees' bytecode into one function. Most of what a fresh node's automined
 * transaction runs is called once per block (leanRunTx, runAndBuild, startBlock, blockOps, the
 * flush...), and V8 compiles each of them a few hundred blocks in, with its callees inlined:
 * ~415 ms of TurboFan in the first thousand transfers, paid back by the few hundred blocks left.
 * With the smaller budget it compiles smaller functions. Measured on fresh nodes under the peers'
 * harness with `npm start`'s node options (W1-W5, seven alternating pairs, medians, 2026-11-27,
 * session 16): node CPU of the thousand automined transfers 1,000 -> 910 ms, of the thousand
 * ERC-20 transfers 990 -> 940 ms, the whole run 5,030 -> 4,800 ms; transfers 1,509 -> 1,479 tx/s,
 * `eth_call` 5,699 -> 5,677/s, RSS the same. 500 gained less (W2 940-970 ms, `eth_call` once
 * 4,535/s), 150 the same CPU as 300 for fewer transactions per second (1,408-1,477 tx/s).
 *
 * Session 15 measured the same budgets without --initial-old-space-size (package.json), with two
 * full GCs inside the thousand transfers, and saw the CPU gain (1,050 -> 980-1,000 ms) outweighed
 * by the JavaScript thread's ~40 µs per transfer (1,482 -> 1,336-1,413 tx/s, `eth_call`
 * 5,990 -> 5,340-5,480/s); sessions 6-12 saw the same trade. With the full GCs gone the slower
 * code no longer shows in the transaction rate.
 */
export const JIT_FLAGS: readonly string[] = ['--always-sparkplug', '--max-inlined-bytecode-size-cumulative=300'];

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
