// Ashlar's side of the dev suite alone, with a CPU profile of the suite (not the fixture):
// `node --import tsx bench/src/profileDevSuite.ts [TESTS] [OUT.cpuprofile]` (without
// --conditions=@ashlar/source the packages run from dist/, so the profile has real line numbers;
// run `npx tsc -b` first). Open the profile in Chrome DevTools or speedscope, or break it down by
// stage with `bench/src/profile/stages.ts OUT 1000`. WARM=N first runs N whole suites unprofiled,
// each on its own chain, so that the profile shows the JIT-warm steady state instead of warm-up.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { openAshlar } from './devSuite.js';
import { runSuite } from './devSuiteShape.js';

const tests = Number(process.argv[2] ?? 200);
const out = process.argv[3] ?? 'dev-suite.cpuprofile';
for (let i = 0; i < Number(process.env.WARM ?? 0); i++) {
  const warmChain = await openAshlar();
  const warm = await runSuite(warmChain.request, tests);
  await warmChain.close();
  console.log(`warm-up suite ${i + 1}: ${Math.round(warm.suiteMs)} ms, CPU ${Math.round(warm.suiteCpuMs)} ms`);
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
const chain = await openAshlar();
// Wall time per method over the suite, to tell transactions from snapshots and reverts.
const perMethod: Record<string, { calls: number; ms: number }> = {};
let counting = false;
const request: typeof chain.request = async (args) => {
  const t = performance.now();
  const result = await chain.request(args);
  if (counting) {
    perMethod[args.method] ??= { calls: 0, ms: 0 };
    const m = perMethod[args.method];
    m.calls++;
    m.ms += performance.now() - t;
  }
  return result;
};
const { fixtureMs, suiteMs, suiteCpuMs } = await runSuite(request, tests, async () => {
  counting = true;
  await session.post('Profiler.start');
});
counting = false;
const { profile } = await session.post('Profiler.stop');
await chain.close();
writeFileSync(out, JSON.stringify(profile));
for (const m of Object.values(perMethod)) m.ms = Math.round(m.ms);
console.table(perMethod);
console.log({
  tests,
  fixtureMs: Math.round(fixtureMs),
  suiteMs: Math.round(suiteMs),
  suiteCpuMs: Math.round(suiteCpuMs),
  profile: out,
});
