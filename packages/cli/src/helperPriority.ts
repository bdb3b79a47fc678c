// The CLI's side of helperThreads.ts: run once, first thing in bin.ts, so that V8's platform
// threads (compiler, GC helpers) are the helper threads changed. createNode() embedders never
// load this: their process's threads are theirs to schedule.
import { helperNiceOf, lowerHelperThreads } from './helperThreads.js';

const nice = helperNiceOf(process.env);
if (nice !== undefined) lowerHelperThreads(nice);
