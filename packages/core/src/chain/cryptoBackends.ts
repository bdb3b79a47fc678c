/**
 * The two implementations of Keccak-256 and secp256k1 a node can run on, with one contract:
 *   - native: the prebuilt addons of the `keccak` and `secp256k1` registry packages (libkeccak,
 *     libsecp256k1): secp256k1 through its `bindings` entry, keccak's sponge class directly
 *     (see loadNativeKeccak256);
 *   - pure-js: @noble/hashes and @noble/curves, for where a prebuilt binary is missing or fails
 *     to load (another platform, installs without scripts, a bundle).
 * Both give the same bytes for the same input (a test compares them, and against ethers).
 * `selectCrypto` picks native per primitive unless ASHLAR_PURE_JS_CRYPTO=1 forces pure JS.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

export type Keccak256 = (msg: Uint8Array) => Uint8Array;

/** What the node needs of secp256k1; keys and hashes are 32 bytes, public keys SEC1-encoded. */
export interface Secp256k1Backend {
  /** 33 bytes compressed, or 65 uncompressed (0x04 prefix). */
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  /** (privateKey + tweak) mod n; throws when tweak ≥ n or the sum is 0 (as BIP-32 requires). */
  privateKeyTweakAdd(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array;
  /** RFC 6979 deterministic, low-s: 64-byte r‖s and the recovery id. */
  ecdsaSign(msgHash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  /** The 65-byte uncompressed public key that made `signature` (64-byte r‖s, any s); throws if none. */
  ecdsaRecover(signature: Uint8Array, recid: number, msgHash: Uint8Array): Uint8Array;
}

export type CryptoImpl = 'native' | 'wasm' | 'pure-js';

export interface CryptoSelection {
  keccak256: Keccak256;
  secp256k1: Secp256k1Backend;
  /** Which implementation each primitive runs on, and why a native one is not used. */
  impl: { keccak: CryptoImpl; secp256k1: CryptoImpl };
  reasons: string[];
}

// ---------------------------------------------------------------------------------------------
// pure JS

export const pureJsKeccak256: Keccak256 = (msg) => keccak_256(msg);

const N = secp256k1.Point.Fn.ORDER;
const toBigInt = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
const to32 = (n: bigint): Uint8Array => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

export const pureJsSecp256k1: Secp256k1Backend = {
  publicKeyCreate: (privateKey, compressed) => secp256k1.getPublicKey(privateKey, compressed),
  privateKeyTweakAdd(privateKey, tweak) {
    const t = toBigInt(tweak);
    if (t >= N) throw new Error('The tweak was out of range or the resulted private key is invalid');
    const sum = (toBigInt(privateKey) + t) % N;
    if (sum === 0n) throw new Error('The tweak was out of range or the resulted private key is invalid');
    return to32(sum);
  },
  ecdsaSign(msgHash, privateKey) {
    const sig = secp256k1.sign(msgHash, privateKey, { prehash: false, format: 'recovered' });
    return { signature: sig.slice(1), recid: sig[0] };
  },
  ecdsaRecover(signature, recid, msgHash) {
    const recovered = new Uint8Array(65);
    recovered[0] = recid;
    recovered.set(signature, 1);
    return secp256k1.Signature.fromBytes(recovered, 'recovered').recoverPublicKey(msgHash).toBytes(false);
  },
};

// ---------------------------------------------------------------------------------------------
// native

const require = createRequire(import.meta.url);

interface KeccakSponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  squeeze(length: number): Buffer;
}

/**
 * The `keccak` package's native sponge, driven directly: its public API (`keccak/bindings`)
 * wraps every hash in a Node stream object, which costs more than the hashing (11% of a
 * one-transaction block's CPU, 27% of an empty block's, measured). The addon class is the
 * package's internal, so the package is pinned exactly and the known-answer check in
 * `selectCrypto` refuses it (falling back to @noble) should a release change it. node-gyp-build
 * is resolved from the keccak package's own dependencies, as its index resolves it.
 */
export function loadNativeKeccak256(): Keccak256 {
  const keccakDir = dirname(require.resolve('keccak/package.json'));
  const fromKeccak = createRequire(join(keccakDir, 'package.json'));
  const load = fromKeccak('node-gyp-build') as (dir: string) => unknown;
  const KeccakState = load(keccakDir);
  if (typeof KeccakState !== 'function') throw new Error('the keccak addon did not load as a constructor');
  // One sponge, re-initialised per hash: hashing is synchronous, so calls never interleave.
  const sponge = new (KeccakState as new () => KeccakSponge)();
  return (msg) => {
    // rate 1088, capacity 512: Keccak-256 (no SHA-3 domain suffix)
    sponge.initialize(1088, 512);
    sponge.absorb(Buffer.from(msg.buffer, msg.byteOffset, msg.byteLength));
    const d = sponge.squeeze(32);
    return new Uint8Array(d.buffer, d.byteOffset, 32);
  };
}

/**
 * Keccak-256 on hash-wasm's WebAssembly module, one instance reused: hashing is synchronous, so
 * calls never interleave. Refused (the caller keeps another implementation) when its answer for
 * the empty input is wrong.
 *
 * The module is driven through its own exports (hashWasmKeccakExports): one Hash_Calculate call
 * per hash below 16 KiB. hash-wasm's hasher object makes three calls (init, update, digest), each
 * through a few wrapper functions that read the instance's `exports` getter and make a view of
 * the input; that wrapper was ~25 us of the ~80 us of keccak per automined transfer (~50 hashes)
 * in a fresh node's profile, and more JavaScript for V8 to optimise. Where the module cannot be
 * read that way, hash-wasm's hasher hashes.
 */
export async function loadWasmKeccak256(): Promise<Keccak256> {
  let direct: Keccak256 | undefined;
  try {
    direct = checkKeccak(await directWasmKeccak256());
  } catch {
    direct = undefined;
  }
  if (direct) return direct;
  // Loaded only here: hash-wasm's main bundle (all its algorithms, ~280 KB of source that V8
  // keeps as a string in every process) is for this fallback alone.
  const { createKeccak } = await import('hash-wasm');
  const hasher = await createKeccak(256);
  const k: Keccak256 = (msg) => {
    hasher.init();
    hasher.update(msg);
    return hasher.digest('binary');
  };
  return checkKeccak(k);
}

/** The exports of hash-wasm's sha3 module that its keccak() uses (hash-wasm/lib/WASMInterface.ts). */
interface Sha3Exports {
  memory: { buffer: ArrayBuffer };
  Hash_GetBuffer(): number;
  Hash_Init(bits: number): void;
  Hash_Update(length: number): void;
  Hash_Final(padding: number): void;
  Hash_Calculate(length: number, bits: number, padding: number): void;
}

/** The WebAssembly global (this package's TypeScript libs do not declare it). */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: { instantiate(bytes: Uint8Array): Promise<{ instance: { exports: unknown } }> };
  }
).WebAssembly;

/** hash-wasm's I/O buffer in the module's memory (MAX_HEAP in hash-wasm/lib/WASMInterface.ts). */
const WASM_IO_BYTES = 16 * 1024;
/** Keccak's padding byte (SHA-3's is 0x06): what hash-wasm's keccak() passes to Hash_Calculate/Hash_Final. */
const KECCAK_PADDING = 0x01;

/**
 * hash-wasm's sha3 module (the one its keccak runs on), compiled from the base64 its keccak
 * bundle embeds; the package is pinned exactly and the caller checks the answers.
 */
async function directWasmKeccak256(): Promise<Keccak256> {
  const bundle = readFileSync(
    join(dirname(require.resolve('hash-wasm/package.json')), 'dist/keccak.umd.min.js'),
    'utf8',
  );
  const found = /name:"sha3",data:"([A-Za-z0-9+/=]+)"/.exec(bundle);
  if (!found) throw new Error('no sha3 module in hash-wasm/dist/keccak.umd.min.js');
  const { instance } = await wasmApi.instantiate(Buffer.from(found[1], 'base64'));
  const ex = instance.exports as Sha3Exports;
  const at = ex.Hash_GetBuffer();
  let io = new Uint8Array(ex.memory.buffer, at, WASM_IO_BYTES);
  return (msg) => {
    // A memory that grew detaches the old view (the sha3 module never grows it; checked anyway).
    if (io.byteLength === 0) io = new Uint8Array(ex.memory.buffer, at, WASM_IO_BYTES);
    const n = msg.length;
    if (n < WASM_IO_BYTES) {
      io.set(msg);
      ex.Hash_Calculate(n, 256, KECCAK_PADDING);
    } else {
      ex.Hash_Init(256);
      for (let o = 0; o < n; o += WASM_IO_BYTES) {
        const chunk = msg.subarray(o, o + WASM_IO_BYTES);
        io.set(chunk);
        ex.Hash_Update(chunk.length);
      }
      ex.Hash_Final(KECCAK_PADDING);
    }
    // A copy: the buffer is overwritten by the next hash.
    return io.slice(0, 32);
  };
}

interface Secp256k1Native {
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array;
  privateKeyTweakAdd(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array;
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array;
}

/** libsecp256k1 through the `secp256k1` package's addon; throws when its prebuilt addon is unavailable. */
export function loadNativeSecp256k1(): Secp256k1Backend {
  const native = require('secp256k1/bindings') as Secp256k1Native;
  return {
    publicKeyCreate: (privateKey, compressed) => native.publicKeyCreate(privateKey, compressed),
    // The package tweaks its argument in place: work on a copy.
    privateKeyTweakAdd: (privateKey, tweak) => native.privateKeyTweakAdd(Uint8Array.from(privateKey), tweak),
    ecdsaSign: (msgHash, privateKey) => native.ecdsaSign(msgHash, privateKey),
    ecdsaRecover: (signature, recid, msgHash) => native.ecdsaRecover(signature, recid, msgHash, false),
  };
}

// ---------------------------------------------------------------------------------------------
// selection

export interface NativeLoaders {
  keccak256: () => Keccak256;
  secp256k1: () => Secp256k1Backend;
}

const NATIVE: NativeLoaders = { keccak256: loadNativeKeccak256, secp256k1: loadNativeSecp256k1 };

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
/** keccak256 of no bytes. */
const KECCAK_EMPTY = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
/** The compressed generator point: the public key of private key 1. */
const GENERATOR = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
const ONE = to32(1n);

/** A loaded addon that answers wrong (a broken build) counts as unavailable. */
function checkKeccak(k: Keccak256): Keccak256 {
  if (hex(k(new Uint8Array(0))) !== KECCAK_EMPTY) throw new Error('wrong keccak256 of the empty input');
  return k;
}
function checkSecp(s: Secp256k1Backend): Secp256k1Backend {
  if (hex(s.publicKeyCreate(ONE, true)) !== GENERATOR) throw new Error('wrong public key of private key 1');
  return s;
}

/** Native where its addon loads, pure JS otherwise or when `env.ASHLAR_PURE_JS_CRYPTO` is 1/true. */
export function selectCrypto(
  env: Record<string, string | undefined> = process.env,
  loaders: NativeLoaders = NATIVE,
): CryptoSelection {
  const forced = /^(1|true|yes)$/i.test(env.ASHLAR_PURE_JS_CRYPTO ?? '');
  const reasons: string[] = forced ? ['ASHLAR_PURE_JS_CRYPTO is set'] : [];
  const attempt = <T>(name: string, load: () => T): T | undefined => {
    if (forced) return undefined;
    try {
      return load();
    } catch (e) {
      reasons.push(`native ${name} unavailable: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      return undefined;
    }
  };
  const keccak = attempt('keccak', () => checkKeccak(loaders.keccak256()));
  const secp = attempt('secp256k1', () => checkSecp(loaders.secp256k1()));
  return {
    keccak256: keccak ?? pureJsKeccak256,
    secp256k1: secp ?? pureJsSecp256k1,
    impl: { keccak: keccak ? 'native' : 'pure-js', secp256k1: secp ? 'native' : 'pure-js' },
    reasons,
  };
}
