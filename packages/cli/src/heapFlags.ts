import { setFlagsFromString } from 'node:v8';

/**
 * Heap growth of the `ashlar` process, set before anything else loads (bin.ts imports this
 * first). V8 lets the old generation grow to ~2-4x what survived the last full GC before it
 * collects again; a dev node keeps ~100 MiB live after a few thousand blocks, so most of its
 * RSS was garbage waiting. Measured at the end of the peers' harness (~3,000 blocks), RSS and
 * node CPU: V8's default 328-335 MiB, 12.0-12.5 s; 1.3x 223-228 MiB, 13.0-13.8 s; 1.45x
 * 230-234 MiB, 12.7-13.0 s; 1.6x 241-243 MiB, 12.3-12.9 s. V8 reads this flag at every GC, so
 * setting it at runtime works: no re-exec. A value the user gave (node
 * --heap-growing-percent=N, or in NODE_OPTIONS) wins; ASHLAR_HEAP_GROWING_PERCENT=0 keeps V8's.
 *
 * When the first full GC comes is not set here: V8 sizes the old generation's first limit when it
 * creates the heap, before any of this runs, so `npm start` passes --initial-old-space-size=192
 * on node's command line (README: two full GCs fewer in a fresh node's first thousand transfers).
 */
export const HEAP_GROWING_PERCENT = 45;

const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => /heap[-_]growing[-_]percent/.test(a));
const env = process.env.ASHLAR_HEAP_GROWING_PERCENT;
const percent = env !== undefined && /^\d+$/.test(env) ? Number(env) : HEAP_GROWING_PERCENT;
if (!given && percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
