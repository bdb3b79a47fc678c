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
 * `--max-inlined-bytecode-size-cumulative=50` (V8's default 920): TurboFan inlines the small
 * functions it always inlines (up to 27 bytes of bytecode) and at most ~50 bytes of larger
 * callees into each function it optimizes. A fresh node compiles ~140 functions on its
 * transaction path in its first thousand transactions, and inlined callees are most of each
 * compile's graph: the same helpers were compiled again inside every caller. Measured in session
 * 15 (fresh nodes under the peers' harness, W1-W5, alternating, 8 runs each, 2026-11-27): node
 * CPU for the thousand automined transfers 1,040-1,140 -> 920-960 ms (V8's compile threads 490-510
 * -> 310-380 µs per transfer), the whole run 5,220-5,580 -> 5,000-5,420 ms, transfer and ERC-20
 * throughput the same within noise, `eth_call` on a fresh node 5,400-6,100 -> 5,200-5,600/s; a
 * warmed node (the 4th repetition of W4) spent 0-6% more CPU. Sessions 6-12 measured budgets of
 * 200-460 against a code base with larger per-block functions and kept V8's: fresh transfers
 * gained 4-6% CPU then, and a warmed node's eth_call lost ~10%. A dev node is mostly fresh
 * nodes (every test run starts one), so the compile it saves counts for more than the last
 * per cent of a long-lived node's reads.
 */
export const JIT_FLAGS: readonly string[] = ['--always-sparkplug', '--max-inlined-bytecode-size-cumulative=50'];

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
