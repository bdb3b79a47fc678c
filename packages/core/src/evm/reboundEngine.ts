/**
 * The hot functions of @ethereumjs/evm and @ethereumjs/statemanager 10.1.3 that convert bytes
 * and numbers through @ethereumjs/util — the SSTORE and other opcode handlers and gas handlers,
 * the journal's warm-slot methods, the interpreter's getters, the original-storage cache —
 * recompiled from their own source text, unchanged, in a scope where those util functions are
 * fastBytes.ts's (same results, same errors). About a sixth of an ERC-20 transfer's EVM time
 * went to those conversions (padding a slot key through two array spreads, a regular expression
 * per `bigIntToBytes`, a Buffer per hex string).
 *
 * A function is recompiled only when all of this holds, else it stays the original:
 * - its module file is byte for byte the one written against (SHA-256 of the file's text);
 * - its text is found in that file (it is the module's own, not one Ashlar already replaced);
 * - every module-level name the text mentions is in the scope: the module's imports (bare
 *   package imports resolved to the same package folder the engine resolves them to) and its
 *   exported declarations. A name the module keeps private keeps the function original.
 * The scope names a fast function only where the module's binding is the util original.
 *
 * The dynamic-gas handlers declared `async` that await nothing (memory expansion, LOG, KECCAK256,
 * CALL…) are recompiled without the `async`, so the interpreter loop gets their figure without a
 * promise (fastSload's SLOAD already did this).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as util from '@ethereumjs/util';
import * as fast from './fastBytes.js';

type AnyFn = (...args: unknown[]) => unknown;

/** SHA-256 of each module file (10.1.3) whose functions are rebound, by path under the package's dist/esm. */
const MODULES = {
  'evm:opcodes/gas.js': '72087f58b0b78e2f5dc7fed7cfa48aeee6000c5dbff4f3d851622f40c5a900c4',
  'evm:opcodes/functions.js': '9a73c68a74d15dd4e6255062cef6b9e575fe0eafd2256948683e3d0556a88440',
  'evm:journal.js': '664ee68ebc39fb3a1c0ec6aabf4de45eb7fc856be2d9213a7b828ec16b04780d',
  'evm:interpreter.js': '27106c4194446a01eb6207a2c5158e13eb242fc6cbb7e180d4b937cd87ba6499',
  'statemanager:cache/originalStorageCache.js': 'be5bbb9d858c8213d313dfaabd6015b1ae56e5937381810c26439ec2cf65abdd',
  'evm:evm.js': 'e978f659e72aeb8ee22ebc4559bafb37e4760b0557512224f734b5b46da22f46',
  'util:address.js': '5277a11133c853af8bea176c10941af4a543acd3cb1f09dbb2abb66b8670a15d',
} as const;

type ModuleKey = keyof typeof MODULES;

/** SHA-256 of `mod` in @ethereumjs/evm 10.1.3's opcodes/util.js (see fastBytes.makeMod). */
const EVM_MOD_SHA256 = '842b2914500c09c399035c17b84ccecba42d86cc903a45dd3a83925972b4da32';

/** One recompiled function: where it lives, the original and its replacement. */
export interface Rebound {
  module: ModuleKey;
  /** `handlers[0x55]`, `Journal.isWarmedStorage`… */
  name: string;
  original: AnyFn;
  rebound: AnyFn;
  /** The names its scope binds to fastBytes.ts's functions. */
  swapped: string[];
  /** Whether an `async` function that awaits nothing was made an ordinary one. */
  deasync: boolean;
  /** Puts the original back (tests), or the rebound one again. */
  restore(which: 'original' | 'rebound'): void;
}

/** What was rebound in this process, and modules left alone with why (for tests and diagnostics). */
export const reboundEngine: { functions: Rebound[]; skipped: string[] } = { functions: [], skipped: [] };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The util functions replaced, by the name modules import them under. */
const FAST_UTIL: Record<string, [original: unknown, replacement: unknown]> = {
  setLengthLeft: [util.setLengthLeft, fast.setLengthLeft],
  setLengthRight: [util.setLengthRight, fast.setLengthRight],
  bigIntToBytes: [util.bigIntToBytes, fast.bigIntToBytes],
  bytesToBigInt: [util.bytesToBigInt, fast.bytesToBigInt],
  bytesToHex: [util.bytesToHex, fast.bytesToHex],
  bytesToUnprefixedHex: [util.bytesToUnprefixedHex, fast.bytesToUnprefixedHex],
  hexToBytes: [util.hexToBytes, fast.hexToBytes],
  unprefixedHexToBytes: [util.unprefixedHexToBytes, fast.unprefixedHexToBytes],
};

const IDENT = /[A-Za-z_$][\w$]*/g;
const IMPORT_NAMED = /^import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"];?\s*$/gm;
const IMPORT_DEFAULT = /^import\s+([A-Za-z_$][\w$]*)\s+from\s*['"]([^'"]+)['"];?\s*$/gm;
const TOP_DECL = /^(?:export\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/gm;

/** The package folder (…/node_modules/@scope/name/) a bare specifier resolves to from `fromFile`. */
function packageRoot(spec: string, fromFile: string): string | undefined {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
  try {
    const resolved = createRequire(fromFile).resolve(spec);
    const marker = `${sep}node_modules${sep}${name.split('/').join(sep)}${sep}`;
    const at = resolved.lastIndexOf(marker);
    return at < 0 ? undefined : resolved.slice(0, at + marker.length);
  } catch {
    return undefined;
  }
}

/**
 * A module file's bindings as its functions see them: imports (bare ones only when this module
 * resolves them to the same package folder as the engine file does, so they are the same
 * instances), then its exports. Names the module declares but does not export are listed apart.
 */
async function moduleScope(
  file: string,
  text: string,
): Promise<{ scope: Map<string, unknown>; privateNames: Set<string> } | string> {
  const scope = new Map<string, unknown>();
  const load = async (spec: string): Promise<Record<string, unknown> | string> => {
    if (spec.startsWith('.'))
      return (await import(pathToFileURL(join(dirname(file), spec)).href)) as Record<string, unknown>;
    const theirs = packageRoot(spec, file);
    const ours = packageRoot(spec, import.meta.url);
    if (theirs === undefined || theirs !== ours) return `${spec} resolves elsewhere`;
    return (await import(spec)) as Record<string, unknown>;
  };
  for (const m of text.matchAll(IMPORT_NAMED)) {
    const ns = await load(m[2] as string);
    if (typeof ns === 'string') return ns;
    for (const part of (m[1] as string).split(',')) {
      const [imported, local] = part.trim().split(/\s+as\s+/);
      if (!imported) continue;
      if (!(imported in ns)) return `${m[2]} has no ${imported}`;
      scope.set(local ?? imported, ns[imported]);
    }
  }
  for (const m of text.matchAll(IMPORT_DEFAULT)) {
    const ns = await load(m[2] as string);
    if (typeof ns === 'string') return ns;
    scope.set(m[1] as string, ns.default);
  }
  const own = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const privateNames = new Set<string>();
  for (const m of text.matchAll(TOP_DECL)) {
    const name = m[1] as string;
    if (name in own) scope.set(name, own[name]);
    else privateNames.add(name);
  }
  return { scope, privateNames };
}

/**
 * `fn` recompiled from its text in `scope` (strict, as module code is), or why not: a private
 * module name in its text, or a text the module does not hold.
 */
function recompile(
  fn: AnyFn,
  text: string,
  scope: Map<string, unknown>,
  privateNames: Set<string>,
  deasync = false,
): { fn: AnyFn; swapped: string[]; deasync: boolean } | string {
  const original = fn.toString();
  if (!text.includes(original)) return 'not the module’s own text';
  const sync = deasync && isAwaitlessAsync(original);
  const source = sync ? original.slice('async '.length) : original;
  const names: string[] = [];
  for (const m of source.matchAll(IDENT)) {
    const name = m[0];
    if (source[(m.index as number) - 1] === '.') continue;
    if (privateNames.has(name)) return `uses the module’s private ${name}`;
    if (scope.has(name) && !names.includes(name)) names.push(name);
  }
  // A function expression as is; a method (`name(…) {`, `async name(…) {`) through an object literal.
  const isExpression = /^(async\s+)?function\b/.test(source);
  const methodName = isExpression ? undefined : /^(?:async\s+)?([A-Za-z_$][\w$]*)\s*\(/.exec(source)?.[1];
  if (!isExpression && methodName === undefined) return 'neither a function expression nor a method';
  const body = isExpression ? `return (${source});` : `return ({ ${source} })[${JSON.stringify(methodName)}];`;
  const swapped: string[] = [];
  const values = names.map((n) => {
    const v = scope.get(n);
    const swap = FAST_UTIL[n];
    if (swap && v === swap[0]) {
      swapped.push(n);
      return swap[1];
    }
    if (n === 'setLengthLeftStorage' && typeof v === 'function') {
      swapped.push(n);
      return fast.makeSetLengthLeftStorage(v as never);
    }
    if (n === 'mod' && typeof v === 'function' && sha256(v.toString()) === EVM_MOD_SHA256) {
      swapped.push(n);
      return fast.makeMod(v as never);
    }
    return v;
  });
  if (swapped.length === 0 && !sync) return 'binds no util function to a fast one';
  let made: AnyFn;
  try {
    made = new Function(...names, `'use strict';\n${body}`)(...values) as AnyFn;
  } catch (e) {
    // e.g. node --disallow-code-generation-from-strings: the original stays.
    return `not compiled: ${e instanceof Error ? e.message : String(e)}`;
  }
  return { fn: made, swapped, deasync: sync };
}

/** Whether the text mentions a function the fast scope replaces (else recompiling gains nothing). */
/**
 * An `async function` expression whose body awaits nothing: it can be an ordinary function. The
 * interpreter takes a gas handler's figure either way (runStep awaits it; leanRun awaits only a
 * promise), and an error it throws reaches the same catch; each call saved a promise and an await.
 */
const isAwaitlessAsync = (source: string): boolean => /^async\s+function\b/.test(source) && !/\bawait\b/.test(source);

const usesSlowUtil = (source: string): boolean =>
  /\b(mod|setLengthLeft|setLengthRight|bigIntToBytes|bytesToBigInt|bytesToHex|bytesToUnprefixedHex|hexToBytes|unprefixedHexToBytes|setLengthLeftStorage)\b/.test(
    source,
  );

interface ModuleTargets {
  /** Maps of functions (opcode → handler) to rebind every entry of. */
  maps?: (ns: Record<string, unknown>) => [string, Map<number, AnyFn> | undefined][];
  /** Whether the maps' `async` functions that await nothing are made ordinary functions. */
  deasync?: boolean;
  /** Classes whose prototype methods to rebind. */
  classes?: (ns: Record<string, unknown>) => [string, { prototype: Record<string, unknown> } | undefined][];
}

const TARGETS: Record<ModuleKey, ModuleTargets> = {
  'evm:opcodes/gas.js': {
    maps: (ns) => [['dynamicGasHandlers', ns.dynamicGasHandlers as Map<number, AnyFn>]],
    deasync: true,
  },
  'evm:opcodes/functions.js': { maps: (ns) => [['handlers', ns.handlers as Map<number, AnyFn>]] },
  'evm:journal.js': { classes: (ns) => [['Journal', ns.Journal as never]] },
  'evm:interpreter.js': { classes: (ns) => [['Interpreter', ns.Interpreter as never]] },
  'statemanager:cache/originalStorageCache.js': {
    classes: (ns) => [['OriginalStorageCache', ns.OriginalStorageCache as never]],
  },
  'evm:evm.js': { classes: (ns) => [['EVM', ns.EVM as never]] },
  'util:address.js': { classes: (ns) => [['Address', ns.Address as never]] },
};

const require_ = createRequire(import.meta.url);

/** The dist/esm folder of an @ethereumjs package as the engine loads it. */
function esmDirOf(pkg: string): string {
  return join(dirname(require_.resolve(`@ethereumjs/${pkg}`)), '..', 'esm');
}

/**
 * Rebinds the functions above, once per process (installEngineSpeedups calls it before any EVM
 * copies the handler tables). Returns how many functions were rebound.
 */
export async function installReboundEngine(): Promise<number> {
  for (const key of Object.keys(MODULES) as ModuleKey[]) {
    const [pkg, path] = key.split(':') as [string, string];
    const file = join(esmDirOf(pkg), path);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      reboundEngine.skipped.push(`${key}: not found`);
      continue;
    }
    if (sha256(text) !== MODULES[key]) {
      reboundEngine.skipped.push(`${key}: not the file written against`);
      continue;
    }
    const found = await moduleScope(file, text);
    if (typeof found === 'string') {
      reboundEngine.skipped.push(`${key}: ${found}`);
      continue;
    }
    const ns = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const targets = TARGETS[key];
    for (const [mapName, map] of targets.maps?.(ns) ?? []) {
      if (!(map instanceof Map)) continue;
      const done = new Map<AnyFn, ReturnType<typeof recompile>>();
      for (const [op, fn] of map) {
        if (typeof fn !== 'function') continue;
        const source = fn.toString();
        const deasync = targets.deasync === true && isAwaitlessAsync(source);
        if (!deasync && !usesSlowUtil(source)) continue;
        let rebound = done.get(fn);
        if (rebound === undefined) {
          rebound = recompile(fn, text, found.scope, found.privateNames, deasync);
          done.set(fn, rebound);
          if (typeof rebound === 'string')
            reboundEngine.skipped.push(`${key} ${mapName}[0x${op.toString(16)}]: ${rebound}`);
        }
        if (typeof rebound === 'string') continue;
        const replacement = rebound.fn;
        map.set(op, replacement);
        reboundEngine.functions.push({
          module: key,
          name: `${mapName}[0x${op.toString(16)}]`,
          original: fn,
          rebound: replacement,
          swapped: rebound.swapped,
          deasync: rebound.deasync,
          restore: (which) => map.set(op, which === 'original' ? fn : replacement),
        });
      }
    }
    for (const [className, cls] of targets.classes?.(ns) ?? []) {
      const proto = cls?.prototype;
      if (!proto) continue;
      for (const method of Object.getOwnPropertyNames(proto)) {
        if (method === 'constructor') continue;
        const desc = Object.getOwnPropertyDescriptor(proto, method);
        const fn = desc?.value;
        if (typeof fn !== 'function' || !usesSlowUtil(fn.toString())) continue;
        const made = recompile(fn, text, found.scope, found.privateNames);
        if (typeof made === 'string') {
          reboundEngine.skipped.push(`${key} ${className}.${method}: ${made}`);
          continue;
        }
        const rebound = made.fn;
        proto[method] = rebound;
        reboundEngine.functions.push({
          module: key,
          name: `${className}.${method}`,
          original: fn,
          rebound,
          swapped: made.swapped,
          deasync: made.deasync,
          restore: (which) => {
            proto[method] = which === 'original' ? fn : rebound;
          },
        });
      }
    }
  }
  return reboundEngine.functions.length;
}
