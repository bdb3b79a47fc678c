/**
 * `EVM.prototype._executeCall` of @ethereumjs/evm 10.1.3 with two changes:
 * - the message it hands `runInterpreter`, `{ ...{ codeAddress: message.codeAddress },
 *   ...message, gasLimit }`, is built by `callFrameMessage` (same keys, same order, same values).
 *   V8 takes a slow runtime path for a spread into an object that already has a property: ~20 µs
 *   per message frame, about a twentieth of an uncached `eth_call` (CPU profile, line ticks);
 * - its early result (a call to an account without code: a value transfer) is a FrameResult, as
 *   `runInterpreter`'s results are (see frameResult.ts: one hidden class for both);
 * - its two results, `{ execResult }`, are `{ createdAddress: undefined, execResult }`: the keys
 *   `_executeCreate`'s results have, in their order, so a call's and a creation's results share
 *   one hidden class. A fresh node mined value transfers with runTx, runAndBuild and the miner
 *   balance code optimised on the call's class alone, and its first contract creation made V8
 *   throw them away ("wrong map") to compile them again. `createdAddress` read on a call's result
 *   is undefined as before (nothing in Ashlar or @ethereumjs asks whether the key exists).
 *
 * The method is recompiled from its own source text with that expression swapped, in a scope that
 * holds the module bindings it names (the same exports of the same module files). Installed only
 * when the source is byte for byte the one this was written against (SHA-256 below); otherwise
 * the original stays.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { earlyFrameResult } from './frameResult.js';

/** SHA-256 of `EVM.prototype._executeCall.toString()` in @ethereumjs/evm 10.1.3. */
const EXECUTE_CALL_SHA256 = 'f2358d2eeecc46e18de7628afe4da9d1e6ca91fe3c22cf9503c7703d0ec64d31';

/** The expression replaced (whitespace as in the shipped file). */
const SPREAD = /\{\s*\.\.\.\{ codeAddress: message\.codeAddress \},\s*\.\.\.message,\s*gasLimit,\s*\}/g;

/** The method's two results (the early exit's and the last), given `_executeCreate`'s keys. */
const RESULTS: [RegExp, string][] = [
  [
    /const earlyResult = \{\s*gasRefund: message\.gasRefund,\s*executionGasUsed: message\.gasLimit - gasLimit,\s*exceptionError: errorMessage,\s*returnValue: new Uint8Array\(0\),\s*logs: eip7708Log \? \[eip7708Log\] : undefined,\s*\};/g,
    'const earlyResult = __earlyFrameResult(message.gasRefund, message.gasLimit - gasLimit, errorMessage, eip7708Log ? [eip7708Log] : undefined);',
  ],
  [/return \{ execResult: earlyResult \};/g, 'return { createdAddress: undefined, execResult: earlyResult };'],
  [/return \{\s*execResult: result,\s*\};/g, 'return { createdAddress: undefined, execResult: result };'],
];

/** Own keys of a Message as its constructor leaves them (10.1.3's message.js), in order. */
const MESSAGE_KEYS = [
  'to',
  'value',
  'caller',
  'gasLimit',
  'data',
  'eofCallData',
  'depth',
  'code',
  '_codeAddress',
  'isStatic',
  'isCompiled',
  'salt',
  'selfdestruct',
  'createdAddresses',
  'delegatecall',
  'gasRefund',
  'blobVersionedHashes',
  'accessWitness',
] as const;

type MessageLike = Record<string, unknown> & { codeAddress: unknown };

/**
 * `{ ...{ codeAddress: message.codeAddress }, ...message, gasLimit }`: written out as one literal
 * when the message has a Message's own keys (those of its constructor, then `chargeCodeAccesses`
 * that `_loadCode` adds), in that order; the spread itself for any other shape.
 */
export function callFrameMessage(message: MessageLike, gasLimit: bigint): Record<string, unknown> {
  const keys = Object.keys(message);
  const n = keys.length;
  let plain = n === MESSAGE_KEYS.length || (n === MESSAGE_KEYS.length + 1 && keys[n - 1] === 'chargeCodeAccesses');
  for (let i = 0; plain && i < MESSAGE_KEYS.length; i++) plain = keys[i] === MESSAGE_KEYS[i];
  if (!plain) return { ...{ codeAddress: message.codeAddress }, ...message, gasLimit };
  const m = message;
  if (n === MESSAGE_KEYS.length) {
    return {
      codeAddress: m.codeAddress,
      to: m.to,
      value: m.value,
      caller: m.caller,
      gasLimit,
      data: m.data,
      eofCallData: m.eofCallData,
      depth: m.depth,
      code: m.code,
      _codeAddress: m._codeAddress,
      isStatic: m.isStatic,
      isCompiled: m.isCompiled,
      salt: m.salt,
      selfdestruct: m.selfdestruct,
      createdAddresses: m.createdAddresses,
      delegatecall: m.delegatecall,
      gasRefund: m.gasRefund,
      blobVersionedHashes: m.blobVersionedHashes,
      accessWitness: m.accessWitness,
    };
  }
  return {
    codeAddress: m.codeAddress,
    to: m.to,
    value: m.value,
    caller: m.caller,
    gasLimit,
    data: m.data,
    eofCallData: m.eofCallData,
    depth: m.depth,
    code: m.code,
    _codeAddress: m._codeAddress,
    isStatic: m.isStatic,
    isCompiled: m.isCompiled,
    salt: m.salt,
    selfdestruct: m.selfdestruct,
    createdAddresses: m.createdAddresses,
    delegatecall: m.delegatecall,
    gasRefund: m.gasRefund,
    blobVersionedHashes: m.blobVersionedHashes,
    accessWitness: m.accessWitness,
    chargeCodeAccesses: m.chargeCodeAccesses,
  };
}

type AnyFn = (...args: unknown[]) => unknown;

/**
 * The ES module entry of a dual package from its CommonJS one (require.resolve answers the
 * latter): evm.js imports the ES module, whose classes are not the CommonJS copy's. With the
 * CommonJS util, the installed _executeCall made its `new Account()` (a call to an absent
 * account) of another class than every other Account: a fresh node's first such call threw away
 * _addToBalance's optimised code ('wrong map'), and `instanceof Account` failed on it. The
 * CommonJS path stays when the package has no such file.
 */
function esmEntry(cjsEntry: string): string {
  const esm = cjsEntry.replace(/([\\/])dist[\\/]cjs[\\/]/, '$1dist$1esm$1');
  return esm !== cjsEntry && existsSync(esm) ? esm : cjsEntry;
}

/** The original `_executeCall`, kept for tests that compare it with the installed one. */
export let originalExecuteCall: AnyFn | undefined;

/**
 * Replaces `EVM.prototype._executeCall` (see the file comment); returns whether it did. `esmDir`
 * is @ethereumjs/evm's dist/esm folder, `evmEntry` its resolved package entry.
 */
export async function installLeanExecuteCall(esmDir: string, evmEntry: string): Promise<boolean> {
  const load = async (file: string) =>
    (await import(pathToFileURL(join(esmDir, file)).href)) as Record<string, unknown>;
  const evmMod = await load('evm.js');
  const proto = (evmMod.EVM as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  const original = proto?._executeCall;
  if (!proto || typeof original !== 'function') return false;
  const source = (original as AnyFn).toString();
  if (createHash('sha256').update(source).digest('hex') !== EXECUTE_CALL_SHA256) return false;
  if (!source.startsWith('async _executeCall(message) {')) return false;
  let patched = source.replace(SPREAD, '__callFrameMessage(message, gasLimit)');
  if (patched === source || patched.replace(SPREAD, '') !== patched) return false;
  for (const [pattern, replacement] of RESULTS) {
    if ((patched.match(pattern) ?? []).length !== 1) return false;
    patched = patched.replace(pattern, replacement);
  }
  // The module bindings the method names, from the modules evm.js imports them from.
  const requireFromEvm = createRequire(evmEntry);
  const util = (await import(pathToFileURL(esmEntry(requireFromEvm.resolve('@ethereumjs/util'))).href)) as Record<
    string,
    unknown
  >;
  const debugMod = (await import(pathToFileURL(requireFromEvm.resolve('debug')).href)) as {
    default?: (namespace: string) => unknown;
  };
  const debugDefault = debugMod.default;
  if (typeof debugDefault !== 'function') return false;
  const scope: Record<string, unknown> = {
    Account: util.Account,
    BIGINT_0: util.BIGINT_0,
    EthereumJSErrorWithoutCode: util.EthereumJSErrorWithoutCode,
    bytesToUnprefixedHex: util.bytesToUnprefixedHex,
    equalsBytes: util.equalsBytes,
    OOGResult: evmMod.OOGResult,
    activeCostPerStateByte: (await load('eip8037.js')).activeCostPerStateByte,
    createEIP7708TransferLog: (await load('eip7708.js')).createEIP7708TransferLog,
    DELEGATION_7702_FLAG: (await load('types.js')).DELEGATION_7702_FLAG,
    getPrecompileName: (await load('precompiles/index.js')).getPrecompileName,
    debug: debugDefault('evm:evm'),
    debugGas: debugDefault('evm:gas'),
    __callFrameMessage: callFrameMessage,
    __earlyFrameResult: earlyFrameResult,
  };
  if (Object.values(scope).some((v) => v === undefined)) return false;
  const names = Object.keys(scope);
  let made: AnyFn;
  try {
    const make = new Function(...names, `return async function ${patched.slice('async '.length)}`) as (
      ...args: unknown[]
    ) => AnyFn;
    made = make(...names.map((k) => scope[k]));
  } catch {
    // e.g. node --disallow-code-generation-from-strings: the original stays.
    return false;
  }
  originalExecuteCall = original as AnyFn;
  proto._executeCall = made;
  return true;
}
