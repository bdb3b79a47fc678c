// Signature recovery and hashing are the single largest cost of accepting a transaction: @noble/curves
// recovers ~560 keys/s on this machine, libsecp256k1 through the `secp256k1` package (a
// prebuilt native addon shipped in the registry package) ~15,000/s. Both plug into
// @ethereumjs/common's customCrypto, so every tx and signature path uses them.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { CustomCrypto } from '@ethereumjs/common';
import { concatBytes, setLengthLeft } from '@ethereumjs/util';

interface Secp256k1Native {
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array;
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array;
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
}

interface KeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  squeeze(length: number): Buffer;
}

const require = createRequire(import.meta.url);
const native = require('secp256k1') as Secp256k1Native;
// The `keccak` package's native sponge (prebuilt in the package), used directly: its public
// API wraps every hash in a Node stream, which costs more than the hashing. ~4x @noble/hashes
// on trie-node-sized inputs; trie hashing is most of a block's cost once signatures are cheap.
const nodeGypBuild = require('node-gyp-build') as (dir: string) => new () => KeccakState;
const KeccakNative = nodeGypBuild(dirname(require.resolve('keccak/package.json')));
// One sponge, re-initialised per hash: hashing is synchronous, so calls never interleave.
const sponge = new KeccakNative();

function keccak256(msg: Uint8Array): Uint8Array {
  // rate 1088, capacity 512: Keccak-256 (no SHA-3 domain suffix)
  sponge.initialize(1088, 512);
  sponge.absorb(Buffer.from(msg.buffer, msg.byteOffset, msg.byteLength));
  const d = sponge.squeeze(32);
  return new Uint8Array(d.buffer, d.byteOffset, 32);
}

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
  return native.ecdsaRecover(sig, recid, msgHash, false).slice(1);
}

/** Same contract as noble's sign(..., { format: 'recovered' }): [recovery, r(32), s(32)]. */
function ecsign(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recid } = native.ecdsaSign(msgHash, privateKey);
  const out = new Uint8Array(65);
  out[0] = recid;
  out.set(signature, 1);
  return out;
}

function ecdsaRecover(sig: Uint8Array, recId: number, hash: Uint8Array): Uint8Array {
  return native.ecdsaRecover(sig, recId, hash, false);
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
    pub = native.publicKeyCreate(privateKey, false).slice(1);
    publicKeys.set(privateKey, pub);
  }
  return pub;
}

export { ecsign as signHash, keccak256 };
