import { setFlagsFromString } from 'node:v8';

/**
 * Heap growth of the `ashlar` process, set before anything else loads (bin.ts imports this
 * first). V8 lets the old generation grow to ~2-4x what survived the last full GC before it
 * collects again; a dev node keeps ~100 MiB live after a few thousand blocks, so most of its
 * RSS was garbage waiting (harness end: 324 MiB RSS for ~100 MiB live). Growing by 1.3x keeps
 * RSS near the live size (224 MiB measured) for a few percent more GC time. V8 reads this flag
 * at every GC, so setting it at runtime works: no re-exec. A value the user gave (node
 * --heap-growing-percent=N, or in NODE_OPTIONS) wins; ASHLAR_HEAP_GROWING_PERCENT=0 keeps V8's.
 */
export const HEAP_GROWING_PERCENT = 30;

const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => /heap[-_]growing[-_]percent/.test(a));
const env = process.env.ASHLAR_HEAP_GROWING_PERCENT;
const percent = env !== undefined && /^\d+$/.test(env) ? Number(env) : HEAP_GROWING_PERCENT;
if (!given && percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
