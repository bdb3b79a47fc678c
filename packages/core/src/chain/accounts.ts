import { createHmac, pbkdf2Sync } from 'node:crypto';
import { Address } from '@ethereumjs/util';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { keccak256, secp256k1Keys } from './nativeCrypto.js';

export interface DevAccount {
  address: Address;
  privateKey: Uint8Array;
}

export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEFAULT_HD_PATH = "m/44'/60'/0'/0";

const secp = secp256k1Keys;

const HARDENED = 0x80000000;

/** BIP-32 private child key derivation (CKDpriv) with secp256k1 (native or pure JS) and node's HMAC. */
function child(key: Uint8Array, chain: Uint8Array, index: number): [Uint8Array, Uint8Array] {
  const data = new Uint8Array(37);
  if (index >= HARDENED) data.set(key, 1);
  else data.set(secp.publicKeyCreate(key, true), 0);
  new DataView(data.buffer).setUint32(33, index);
  const I = createHmac('sha512', chain).update(data).digest();
  const next = secp.privateKeyTweakAdd(key, I.subarray(0, 32));
  return [next, new Uint8Array(I.subarray(32))];
}

/**
 * The address of a private key: the last 20 bytes of the keccak of its uncompressed public key,
 * on the selected secp256k1 (@ethereumjs's privateToAddress multiplies on @noble/curves: its
 * first call builds precomputed tables, ~150 ms of a node's start, then ~1 ms a key).
 */
function addressOf(privateKey: Uint8Array): Address {
  const pub = secp.publicKeyCreate(privateKey, false);
  return new Address(keccak256(pub.subarray(1)).slice(12));
}

/**
 * Derives accounts on `path/i` (m/44'/60'/0'/0/i by default, as Hardhat, Anvil and Ganache).
 * BIP-39 seed and BIP-32 derivation run on node's crypto and libsecp256k1: the same keys as
 * @scure/bip32 (a test checks it), about 40x faster, which is most of a node's cold start.
 */
export function deriveAccounts(mnemonic: string, count: number, path = DEFAULT_HD_PATH): DevAccount[] {
  const words = mnemonic.trim().normalize('NFKD');
  if (!validateMnemonic(words, wordlist))
    throw new AshlarError(ErrorCodes.OPTIONS, 'invalid mnemonic: not a valid BIP-39 English mnemonic');
  const seed = pbkdf2Sync(words, 'mnemonic', 2048, 64, 'sha512');
  const master = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  let key: Uint8Array = new Uint8Array(master.subarray(0, 32));
  let chain: Uint8Array = new Uint8Array(master.subarray(32));
  for (const part of path.split('/').slice(1)) {
    const hardened = part.endsWith("'");
    const n = Number.parseInt(hardened ? part.slice(0, -1) : part, 10);
    if (!Number.isInteger(n) || n < 0 || n >= HARDENED)
      throw new AshlarError(ErrorCodes.OPTIONS, `invalid HD path segment "${part}" in ${path}`);
    [key, chain] = child(key, chain, hardened ? n + HARDENED : n);
  }
  const out: DevAccount[] = [];
  for (let i = 0; i < count; i++) {
    const [privateKey] = child(key, chain, i);
    out.push({ address: addressOf(privateKey), privateKey });
  }
  return out;
}
