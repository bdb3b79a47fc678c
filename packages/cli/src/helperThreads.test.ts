import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HELPER_NICE, helperNiceOf, lowerHelperThreads } from './helperThreads.js';

/**
 * Runs `module` (a .ts file beside this one) in a fresh node and reports every thread's nice value
 * before and after loading it. Priorities are per thread and are never lowered back, so this runs
 * in a child: the test runner's own threads stay as they are.
 */
function threadsAround(module: string, env: Record<string, string> = {}) {
  const url = new URL(module, import.meta.url).href;
  const script = `
    import { readdirSync } from 'node:fs';
    import { getPriority } from 'node:os';
    const nices = () => Object.fromEntries(readdirSync('/proc/self/task').map((t) => [t, getPriority(Number(t))]));
    let before = nices();
    const mod = await import(${JSON.stringify(url)});
    if (process.env.PRE) {
      mod.lowerHelperThreads(Number(process.env.PRE));
      before = nices();
    }
    const changed = typeof mod.lowerHelperThreads === 'function' && process.env.NICE ? mod.lowerHelperThreads(Number(process.env.NICE)) : undefined;
    console.log(JSON.stringify({ pid: process.pid, before, after: nices(), changed }));
  `;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as {
    pid: number;
    before: Record<string, number>;
    after: Record<string, number>;
    changed?: number;
  };
}

const onLinux = process.platform === 'linux';

describe('helperNiceOf', () => {
  it('defaults to 19, 0 turns it off, values are capped at 19 and anything else is refused', () => {
    expect(helperNiceOf({})).toBe(HELPER_NICE);
    expect(HELPER_NICE).toBe(19);
    expect(helperNiceOf({ ASHLAR_HELPER_NICE: '' })).toBe(19);
    expect(helperNiceOf({ ASHLAR_HELPER_NICE: '0' })).toBeUndefined();
    expect(helperNiceOf({ ASHLAR_HELPER_NICE: ' 7 ' })).toBe(7);
    expect(helperNiceOf({ ASHLAR_HELPER_NICE: '40' })).toBe(19);
    expect(helperNiceOf({ ASHLAR_HELPER_NICE: '-5' })).toBeUndefined();
    expect(helperNiceOf({ ASHLAR_HELPER_NICE: 'high' })).toBeUndefined();
  });
});

describe('lowerHelperThreads', () => {
  it('raises every thread but the JavaScript thread to the value, and never lowers one', () => {
    const r = threadsAround('./helperThreads.ts', { NICE: '11' });
    const main = String(r.pid);
    expect(r.after[main]).toBe(r.before[main]);
    const helpers = Object.keys(r.before).filter((t) => t !== main && t in r.after);
    if (!onLinux) {
      expect(r.changed).toBe(0);
      return;
    }
    // V8's platform threads exist from the start of every node process.
    expect(helpers.length).toBeGreaterThanOrEqual(4);
    for (const t of helpers) expect(r.after[t]).toBe(Math.max(11, r.before[t]));
    expect(r.changed).toBe(helpers.filter((t) => r.before[t] < 11).length);
  });

  it('never lowers a thread that is already above the value', () => {
    const r = threadsAround('./helperThreads.ts', { PRE: '15', NICE: '5' });
    expect(r.changed).toBe(0);
    expect(r.after).toEqual(r.before);
    if (onLinux) expect(Object.values(r.after).filter((n) => n === 15).length).toBeGreaterThanOrEqual(4);
  });

  it('answers 0 for a task directory it cannot read', () => {
    expect(lowerHelperThreads(19, '/nonexistent/task')).toBe(0);
  });
});

describe('helperPriority (what bin.ts loads first)', () => {
  it('gives the helper threads nice 19 by default, and changes nothing with ASHLAR_HELPER_NICE=0', () => {
    const on = threadsAround('./helperPriority.ts', { ASHLAR_HELPER_NICE: '' });
    const off = threadsAround('./helperPriority.ts', { ASHLAR_HELPER_NICE: '0' });
    for (const r of [on, off]) expect(r.after[String(r.pid)]).toBe(r.before[String(r.pid)]);
    const helpers = (r: typeof on) => Object.keys(r.before).filter((t) => t !== String(r.pid) && t in r.after);
    for (const t of helpers(off)) expect(off.after[t]).toBe(off.before[t]);
    if (!onLinux) return;
    expect(helpers(on).length).toBeGreaterThanOrEqual(4);
    for (const t of helpers(on)) expect(on.after[t]).toBe(19);
  });
});
