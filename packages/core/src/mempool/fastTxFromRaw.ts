import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import {
  Capability,
  FeeMarket1559Tx,
  LegacyTx,
  type TypedTransaction,
  createTx,
  createTxFromRLP,
  paramsTx,
} from '@ethereumjs/tx';
import { Address, bytesToBigInt } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * `createTxFromRLP(raw, { common, freeze: false })` for the two shapes a dev chain sees all the
 * time, a signed EIP-155 legacy transaction and a signed EIP-1559 one, built without
 * @ethereumjs's constructors: they convert every field bytes → bigint → bytes → bigint through
 * hex strings, copy the Common, and check each field through Object.entries (~10 µs of each
 * transaction a node decodes or signs). The object made is the constructor's, field for field
 * and in the same order (@ethereumjs/tx is pinned exactly; `fastTxMatchesStock` compares the two
 * on first use and turns this off for good if they differ).
 *
 * Only input every check of the constructor passes is taken: anything else (other types, an
 * unsigned or pre-EIP-155 transaction, leading zeros, overflows, a high s, a fee cap below the
 * tip, the EIP-7825 gas cap, EIP-3860's initcode limit, a malformed access list) answers
 * undefined, and the caller runs the stock constructor, which throws the error it always threw.
 */
export function fastTxFromRaw(raw: Uint8Array, common: Common): TypedTransaction | undefined {
  let ok = checked.get(common);
  if (ok === undefined) {
    ok = fastTxMatchesStock(common);
    checked.set(common, ok);
    if (ok) primeTxShapes(common);
  }
  return ok ? build(raw, common) : undefined;
}

/** Per chain Common: whether fastTxMatchesStock held. */
const checked = new WeakMap<Common, boolean>();

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_INTEGER = 2n ** 256n - 1n;
/** secp256k1n / 2 (EIP-2). */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

type Fields = Record<string, unknown>;

function build(raw: Uint8Array, common: Common): TypedTransaction | undefined {
  if (raw.length === 0) return undefined;
  const type = raw[0] >= 0xc0 ? 0 : raw[0];
  if (type !== 0 && type !== 2) return undefined;
  let values: unknown;
  try {
    values = RLP.decode(type === 0 ? raw : raw.subarray(1));
  } catch {
    return undefined;
  }
  if (!Array.isArray(values)) return undefined;
  return type === 0 ? legacy(values, common) : feeMarket(values, common);
}

/** A byte string without leading zeros of at most `max` bytes (what validateNoLeadingZeroes and the overflow checks accept). */
function quantity(v: unknown, max: number): v is Uint8Array {
  return v instanceof Uint8Array && v.length <= max && (v.length === 0 || v[0] !== 0);
}

/** The value of a big-endian quantity (empty = 0). */
function big(b: Uint8Array): bigint {
  if (b.length <= 6) {
    let n = 0;
    for (let i = 0; i < b.length; i++) n = n * 256 + b[i];
    return BigInt(n);
  }
  return bytesToBigInt(b);
}

/** The checks sharedConstructor makes of gas limit, nonce and init code, for values already known to fit. */
function sharedChecks(common: Common, nonce: bigint, gasLimit: bigint, to: Uint8Array, data: Uint8Array): boolean {
  if (nonce >= MAX_UINT64 || gasLimit > MAX_UINT64) return false;
  if (common.isActivatedEIP(7825) && !common.isActivatedEIP(8037)) {
    if (gasLimit > common.param('maxTransactionGasLimit')) return false;
  }
  if (to.length === 0 && common.isActivatedEIP(3860)) {
    const max = common.param('maxInitCodeSize');
    if (max && BigInt(data.length) > max) return false;
  }
  return true;
}

/** What a chain Common held when its transactions' copy was made (see txCommon). */
interface SharedCopy {
  copy: Common;
  /** The Common's fields a copy takes (Common.copy is a shallow Object.assign), as they were. */
  from: unknown[];
  /** The copy's own, as made: a copy someone changed is not handed out again. */
  made: unknown[];
}
const sharedCopies = new WeakMap<Common, SharedCopy>();

/** The Common fields (@ethereumjs/common 10, pinned) whose values a copy takes: hardfork, EIPs, parameters and their caches. */
const COMMON_STATE = [
  '_hardfork',
  '_eips',
  '_params',
  '_paramsCache',
  '_activatedEIPsCache',
  '_chainParams',
  'HARDFORK_CHANGES',
  'customCrypto',
  'updateParams',
] as const;

function commonState(common: Common): unknown[] {
  const c = common as unknown as Record<string, unknown>;
  return COMMON_STATE.map((k) => c[k]);
}

function sameState(common: Common, from: readonly unknown[]): boolean {
  const c = common as unknown as Record<string, unknown>;
  for (let i = 0; i < COMMON_STATE.length; i++) if (c[COMMON_STATE[i]] !== from[i]) return false;
  return true;
}

/**
 * The Common of a transaction built here: the constructor's `common.copy()` with the tx
 * parameters merged, made once and shared by the transactions decoded while the chain's Common
 * holds the same hardfork, EIPs and parameters (a copy per transaction was ~3-7 µs: an
 * Object.assign of the Common and a new EventEmitter). A stock copy has the same field values;
 * only its identity differs. Nothing on Ashlar's paths changes a transaction's Common (every runTx
 * passes skipHardForkValidation, which is what would set its hardfork); when the chain's Common
 * changed since (setHardfork, setEIPs), or the shared copy did, the next transaction gets a new
 * copy, as the constructor would make.
 */
function txCommon(common: Common): Common {
  const known = sharedCopies.get(common);
  if (known !== undefined && sameState(common, known.from) && sameState(known.copy, known.made)) return known.copy;
  const from = commonState(common);
  const copy = common.copy();
  copy.updateParams(paramsTx);
  sharedCopies.set(common, { copy, from, made: commonState(copy) });
  return copy;
}

/** The fields sharedConstructor sets, in its order, on an object of `proto`. */
function base(
  proto: object,
  type: number,
  common: Common,
  f: {
    to: Uint8Array;
    nonce: bigint;
    gasLimit: bigint;
    value: bigint;
    data: Uint8Array;
    v: bigint;
    r: bigint;
    s: bigint;
  },
): Fields {
  const tx = Object.create(proto) as Fields;
  tx.type = type;
  tx.cache = {};
  tx.activeCapabilities = [];
  tx.common = txCommon(common);
  tx.txOptions = { common, freeze: false };
  tx.to = f.to.length > 0 ? new Address(f.to) : undefined;
  tx.nonce = f.nonce;
  tx.gasLimit = f.gasLimit;
  tx.value = f.value;
  tx.data = f.data;
  tx.v = f.v;
  tx.r = f.r;
  tx.s = f.s;
  return tx;
}

function legacy(values: unknown[], common: Common): TypedTransaction | undefined {
  if (values.length !== 9) return undefined;
  // Indexed reads, not array destructuring: that is the iterator protocol per element (with an
  // iterator-closing try/finally) in bytecode, ~3x this function's size for V8 to run and compile.
  const nonceB = values[0];
  const gasPriceB = values[1];
  const gasLimitB = values[2];
  const to = values[3];
  const valueB = values[4];
  const data = values[5];
  const vB = values[6];
  const rB = values[7];
  const sB = values[8];
  if (!quantity(nonceB, 8) || !quantity(gasPriceB, 32) || !quantity(gasLimitB, 8) || !quantity(valueB, 32)) return;
  if (!quantity(vB, 32) || !quantity(rB, 32) || !quantity(sB, 32)) return undefined;
  if (vB.length === 0 || rB.length === 0 || sB.length === 0) return undefined;
  if (!(to instanceof Uint8Array) || (to.length !== 0 && to.length !== 20) || !(data instanceof Uint8Array)) return;
  if (!common.gteHardfork('spuriousDragon')) return undefined;
  const v = big(vB);
  const chainId = common.chainId();
  // EIP-155 only (v = chainId * 2 + 35 or 36): 27/28 and other values take the stock path.
  if (v !== chainId * 2n + 35n && v !== chainId * 2n + 36n) return undefined;
  const nonce = big(nonceB);
  const gasLimit = big(gasLimitB);
  const gasPrice = big(gasPriceB);
  if (gasPrice * gasLimit > MAX_INTEGER || !sharedChecks(common, nonce, gasLimit, to, data)) return undefined;
  const value = big(valueB);
  const tx = base(LegacyTx.prototype, 0, common, { to, nonce, gasLimit, value, data, v, r: big(rB), s: big(sB) });
  tx.gasPrice = gasPrice;
  const copy = tx.common as Common;
  tx.keccakFunction = copy.customCrypto.keccak256 ?? keccak_256;
  (tx.activeCapabilities as number[]).push(Capability.EIP155ReplayProtection);
  return tx as unknown as TypedTransaction;
}

function feeMarket(values: unknown[], common: Common): TypedTransaction | undefined {
  if (values.length !== 12) return undefined;
  // Indexed reads, not array destructuring (see legacy).
  const chainIdB = values[0];
  const nonceB = values[1];
  const tipB = values[2];
  const capB = values[3];
  const gasLimitB = values[4];
  const to = values[5];
  const valueB = values[6];
  const data = values[7];
  const accessList = values[8];
  const vB = values[9];
  const rB = values[10];
  const sB = values[11];
  if (!(chainIdB instanceof Uint8Array) || big(chainIdB) !== common.chainId()) return undefined;
  if (!quantity(nonceB, 8) || !quantity(tipB, 32) || !quantity(capB, 32) || !quantity(gasLimitB, 8)) return;
  if (!quantity(valueB, 32) || !quantity(vB, 1) || !quantity(rB, 32) || !quantity(sB, 32)) return undefined;
  if (rB.length === 0 || sB.length === 0 || (vB.length === 1 && vB[0] !== 1)) return undefined;
  if (!(to instanceof Uint8Array) || (to.length !== 0 && to.length !== 20) || !(data instanceof Uint8Array)) return;
  if (!plainAccessList(accessList) || !common.isActivatedEIP(1559)) return undefined;
  const nonce = big(nonceB);
  const gasLimit = big(gasLimitB);
  const tip = big(tipB);
  const cap = big(capB);
  const s = big(sB);
  if (gasLimit * cap > MAX_INTEGER || cap < tip) return undefined;
  if (s > HALF_N && common.gteHardfork('homestead')) return undefined;
  if (!sharedChecks(common, nonce, gasLimit, to, data)) return undefined;
  const value = big(valueB);
  const f = { to, nonce, gasLimit, value, data, v: big(vB), r: big(rB), s };
  const tx = base(FeeMarket1559Tx.prototype, 2, common, f);
  tx.chainId = (tx.common as Common).chainId();
  tx.activeCapabilities = [1559, 2718, 2930];
  tx.accessList = accessList;
  tx.maxFeePerGas = cap;
  tx.maxPriorityFeePerGas = tip;
  return tx as unknown as TypedTransaction;
}

/** An access list in its byte form that verifyAccessList accepts: [address(20), [slot(32)…]] items. */
function plainAccessList(list: unknown): list is Uint8Array[][] {
  if (!Array.isArray(list)) return false;
  for (const item of list) {
    if (!Array.isArray(item) || item.length !== 2) return false;
    const address = item[0];
    const slots = item[1];
    if (!(address instanceof Uint8Array) || address.length !== 20 || !Array.isArray(slots)) return false;
    for (const slot of slots) if (!(slot instanceof Uint8Array) || slot.length !== 32) return false;
  }
  return true;
}

/**
 * Whether what this module builds is what @ethereumjs's constructors build, for a signed legacy
 * and (where London is active) a signed EIP-1559 transaction made on `common`: the same own
 * fields in the same order with equal values.
 */
export function fastTxMatchesStock(common: Common): boolean {
  try {
    for (const raw of samples(common)) {
      const fast = build(raw, common);
      const stock = createTxFromRLP(raw, { common, freeze: false });
      if (fast === undefined || !sameFields(fast, stock)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * What later code does to the objects `build` makes, done once on throwaway ones before any of
 * it runs hot, so that V8 settles their shared hidden classes at once instead of after the
 * write path's biggest functions were optimised against them (each change of a field's tracked
 * type or constness throws away every optimised function that relied on it: on a fresh node the
 * first contract creation's `to: undefined` made V8 recompile runTx's _runTx, runAndBuild and
 * getIntrinsicGas, and the first eth_call copy (Executor's withData gives a copy new `data` and
 * `cache`) the decode and submit path). Which class a field holds and whether it is ever
 * reassigned change nothing in what the transactions are.
 *
 * The creations' intrinsic gas is asked for too, a few times each: @ethereumjs's getIntrinsicGas
 * reads `tx.common` again (for txCreationGas) only for a creation, so that read had no type
 * feedback while a workload sent value transfers only, and the optimised getIntrinsicGas was
 * thrown away at the first contract deployment ("Insufficient type feedback for generic named
 * access", legacy.js:75). V8 allocates a function's feedback vector only after its first few
 * calls (--lazy-feedback-allocation), hence more than one call. getIntrinsicGas only computes.
 */
function primeTxShapes(common: Common): void {
  for (const raw of samples(common, true)) {
    const tx = build(raw, common) as Fields | undefined;
    if (tx === undefined) continue;
    const creation = tx as unknown as TypedTransaction;
    for (let i = 0; i < INTRINSIC_PRIMING_CALLS; i++) creation.getIntrinsicGas();
    tx.data = new Uint8Array(0);
    tx.cache = {};
  }
}

/** Calls enough for V8 to allocate getIntrinsicGas's feedback vector and then record into it. */
const INTRINSIC_PRIMING_CALLS = 12;

/** A signed legacy and (from London) EIP-1559 transaction to an address, or (`creation`) creating a contract. */
function samples(common: Common, creation = false): Uint8Array[] {
  const chainId = common.chainId();
  const to = creation ? undefined : new Address(Uint8Array.from({ length: 20 }, (_, i) => i + 1));
  const data = Uint8Array.from({ length: 68 }, (_, i) => i);
  const signature = { r: 2n ** 255n + 7n, s: 12_345n };
  const opts = { common };
  const out = [
    createTx(
      {
        type: 0,
        nonce: 5n,
        gasPrice: 10n ** 10n,
        gasLimit: 100_000n,
        to,
        value: 1n,
        data,
        v: chainId * 2n + 36n,
        ...signature,
      },
      opts,
    ).serialize(),
  ];
  if (common.isActivatedEIP(1559)) {
    const listed = to?.bytes ?? new Uint8Array(20).fill(1);
    const accessList = [[listed, [new Uint8Array(32).fill(1, 31)]]] as [Uint8Array, Uint8Array[]][];
    const fees = { maxPriorityFeePerGas: 10n ** 9n, maxFeePerGas: 3n * 10n ** 9n };
    out.push(
      createTx(
        {
          type: 2,
          chainId,
          nonce: 7n,
          gasLimit: 100_000n,
          to,
          value: 0n,
          data,
          accessList,
          ...fees,
          v: 1n,
          ...signature,
        },
        opts,
      ).serialize(),
    );
  }
  return out;
}

/** Own fields, in order, equal (a Common by chain id and hardfork, an Address by its bytes). */
export function sameFields(a: object, b: object): boolean {
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join() !== kb.join()) return false;
  const ra = a as Fields;
  const rb = b as Fields;
  return ka.every((k) => sameValue(ra[k], rb[k]));
}

function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (x instanceof Uint8Array && y instanceof Uint8Array) return x.length === y.length && x.every((b, i) => b === y[i]);
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => sameValue(v, y[i]));
  if (x instanceof Address && y instanceof Address) return x.equals(y);
  const cx = x as Common;
  const cy = y as Common;
  if (typeof cx?.chainId === 'function' && typeof cy?.chainId === 'function')
    return cx.chainId() === cy.chainId() && cx.hardfork() === cy.hardfork();
  if (typeof x === 'object' && typeof y === 'object' && x !== null && y !== null) {
    // txOptions, cache: plain objects compared by their fields
    const kx = Object.keys(x);
    return kx.join() === Object.keys(y).join() && kx.every((k) => sameValue((x as Fields)[k], (y as Fields)[k]));
  }
  return typeof x === 'function' && typeof y === 'function' && x === y;
}
