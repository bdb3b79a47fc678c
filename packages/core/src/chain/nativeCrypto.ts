// Signature recovery and hashing are the single largest cost of accepting a transaction: @noble/curves
// recovers ~560 keys/s on this machine, libsecp256k1 through the `secp256k1` package (a
// prebuilt native addon shipped in the registry package) ~15,000/s; the `keccak` addon hashes
// trie-node-sized inputs ~2-3x faster than @noble/hashes (bench/src/crypto.ts). Both plug into
// @ethereumjs/common's customCrypto, so every tx and signature path uses them. Where an addon is missing or broken
// (or ASHLAR_PURE_JS_CRYPTO=1), the same functions run on @noble/* with identical results
// (cryptoBackends.ts); `cryptoImpl` says which one runs.
import type { CustomCrypto } from '@ethereumjs/common';
import { concatBytes, setLengthLeft } from '@ethereumjs/util';
import { type CryptoSelection, loadWasmKeccak256, selectCrypto } from './cryptoBackends.js';

const selected: CryptoSelection = selectCrypto();
const secp = selected.secp256k1;
// Keccak-256 moves to WebAssembly (hash-wasm) once its module instantiates (useWasmKeccak, which
// createKernel awaits): one call per hash into a module-local hasher, ~0.9 µs for a 32-byte input
// against ~2 µs through the `keccak` addon's three N-API calls and Buffer wrapping, and ~7 µs on
// @noble/hashes (bench/src/crypto.ts). An automined block hashes about 50 times (trie nodes,
// keys, header, transactions). Instantiating is asynchronous and this module is loaded by
// require()-based hosts too (Hardhat 2 transpiles to CommonJS), so no top-level await: until
// then, and where WebAssembly fails, the selection above hashes.
let keccakImpl = selected.keccak256;
let wasmLoading: Promise<void> | undefined;

/** Switches Keccak-256 to hash-wasm, once per process; never rejects (a failure keeps the current one and says why). */
export function useWasmKeccak(): Promise<void> {
  if (/^(1|true|yes)$/i.test(process.env.ASHLAR_PURE_JS_CRYPTO ?? '')) return Promise.resolve();
  wasmLoading ??= loadWasmKeccak256().then(
    (wasm) => {
      keccakImpl = wasm;
      selected.keccak256 = wasm;
      selected.impl.keccak = 'wasm';
    },
    (e: unknown) => {
      selected.reasons.push(`wasm keccak unavailable: ${e instanceof Error ? e.message : String(e)}`);
    },
  );
  return wasmLoading;
}

/** Which implementation Keccak-256 and secp256k1 run on in this process, and why not native if not. */
export const cryptoImpl: Pick<CryptoSelection, 'impl' | 'reasons'> = {
  impl: selected.impl,
  reasons: selected.reasons,
};

/** Keccak-256 on the implementation in use (see useWasmKeccak). */
const keccak256: CryptoSelection['keccak256'] = (msg) => keccakImpl(msg);

function recoveryId(v: bigint, chainId?: bigint): number {
  if (v === 0n || v === 1n) return Number(v);
  if (chainId === undefined) return Number(v - 27n);
  return Number(v - (chainId * 2n + 35n));
}

/** Same contract as @ethereumjs/util ecrecover: 64-byte public key without the 0x04 prefix. */
function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recid = recoveryId(v, chainId);
  if (recid !== 0 && recid !== 1) throw new Error('Invalid signature v value');
  const sig = concatBytes(setLengthLeft(r, 32), setLengthLeft(s, 32));
  return secp.ecdsaRecover(sig, recid, msgHash).slice(1);
}

/** Same contract as noble's sign(..., { format: 'recovered' }): [recovery, r(32), s(32)]. */
function ecsign(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recid } = secp.ecdsaSign(msgHash, privateKey);
  const out = new Uint8Array(65);
  out[0] = recid;
  out.set(signature, 1);
  return out;
}

function ecdsaRecover(sig: Uint8Array, recId: number, hash: Uint8Array): Uint8Array {
  return secp.ecdsaRecover(sig, recId, hash);
}

export const nativeCrypto: CustomCrypto = {
  keccak256,
  ecrecover,
  ecsign: ecsign as unknown as CustomCrypto['ecsign'],
  ecdsaRecover,
};

const publicKeys = new WeakMap<Uint8Array, Uint8Array>();

/**
 * The 64-byte public key (no 0x04 prefix) of a private key, remembered per key object: a
 * transaction the node signs itself can carry its sender's key instead of recovering it
 * from the signature it just made.
 */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  let pub = publicKeys.get(privateKey);
  if (pub === undefined) {
    pub = secp.publicKeyCreate(privateKey, false).slice(1);
    publicKeys.set(privateKey, pub);
  }
  return pub;
}

/** BIP-32 key derivation's two secp256k1 steps, on the selected implementation. */
export const secp256k1Keys: Pick<typeof secp, 'publicKeyCreate' | 'privateKeyTweakAdd'> = {
  publicKeyCreate: (privateKey, compressed) => secp.publicKeyCreate(privateKey, compressed),
  privateKeyTweakAdd: (privateKey, tweak) => secp.privateKeyTweakAdd(privateKey, tweak),
};

export { ecsign as signHash, keccak256 };
