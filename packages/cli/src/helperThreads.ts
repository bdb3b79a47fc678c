import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Scheduling priority of the `ashlar` process's helper threads, set before anything else loads
 * (bin.ts imports helperPriority.ts first, which calls lowerHelperThreads). A fresh node runs V8's optimizing compiler and its parallel GC on
 * four platform threads beside the JavaScript thread; on a small machine (a CI runner, the
 * peers' harness: 2 cores shared with the client) they take the cores from the one thread that
 * answers requests and from the client waiting for the answer. Linux schedules threads one by one,
 * so the helpers' nice value can be raised alone: they still use any core nobody else wants, and
 * yield it when the JavaScript thread or the client is runnable. Measured on fresh
 * `ashlar --memory` nodes under the peers' harness (2 cores, alternating, 3 runs each): automined
 * transfers 739-807 -> 806-826 tx/s, ERC-20 transfers 621-666 -> 652-676 tx/s, node CPU unchanged
 * (with `--v8-pool-size=0` as well, as `npm start` runs it: 842-862 and 677-712; README).
 * Only threads that exist when this runs are changed: those started later (libuv's pool, created
 * on first use) keep the default, as does the JavaScript thread. Raising a nice value needs no
 * privilege; lowering it back would, which is why nothing here ever lowers one.
 *
 * ASHLAR_HELPER_NICE=N sets another value (1-19); 0 leaves every thread as it is.
 */
export const HELPER_NICE = 19;

/** The nice value to give the helper threads, or undefined for none (env 0, or not a number). */
export function helperNiceOf(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.ASHLAR_HELPER_NICE;
  if (raw === undefined || raw === '') return HELPER_NICE;
  if (!/^\d+$/.test(raw.trim())) return undefined;
  const n = Number(raw.trim());
  return n === 0 ? undefined : Math.min(n, 19);
}

/**
 * Raises the nice value of every thread of this process but the JavaScript thread to `nice` (never
 * lowers one); Linux only, where /proc/self/task lists them and setpriority() takes a thread id.
 * Returns the number of threads changed. Never throws: a thread that ended meanwhile, or a
 * platform without per-thread priorities, is skipped.
 */
export function lowerHelperThreads(nice: number, taskDir = '/proc/self/task'): number {
  if (process.platform !== 'linux') return 0;
  let tids: number[];
  try {
    tids = readdirSync(taskDir).map(Number);
  } catch {
    return 0;
  }
  let changed = 0;
  for (const tid of tids) {
    // The main thread's id is the process id.
    if (!Number.isInteger(tid) || tid === process.pid) continue;
    try {
      if (getPriority(tid) >= nice) continue;
      setPriority(tid, nice);
      changed++;
    } catch {
      // The thread ended between the listing and here, or the call is refused: leave it.
    }
  }
  return changed;
}
