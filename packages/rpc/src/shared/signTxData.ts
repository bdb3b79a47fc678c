import { signHash } from '@ashlar/core';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * The transaction `data` (requestTxData's fields) signed with `key`, made in one construction:
 * the message @ethereumjs signs (legacy EIP-155: rlp([nonce, gasPrice, gas, to, value, data,
 * chainId, 0, 0]); EIP-2930/1559: type byte ‖ rlp of the unsigned fields) is encoded here, and
 * the transaction is created once with its signature. @ethereumjs's `sign` builds the unsigned
 * transaction, then a second, signed one, and re-parses the signature on @noble/curves: ~50 µs of
 * each eth_sendTransaction. Undefined where this does not apply (pre-EIP-155 legacy, blob and
 * set-code types, access lists, a field of an unexpected type): the caller signs the usual way.
 */
export function signTxData(
  common: Common,
  data: Record<string, unknown>,
  key: Uint8Array,
): TypedTransaction | undefined {
  const message = messageToSign(common, data);
  if (!message) return undefined;
  const keccak = common.customCrypto.keccak256 ?? keccak_256;
  const sig = signHash(keccak(message), key) as unknown as Uint8Array; // [recovery id, r, s]
  const recovery = BigInt(sig[0]);
  const chainId = data.chainId as bigint;
  const v = data.type === 0 ? recovery + chainId * 2n + 35n : recovery;
  const signed = { ...data, v, r: bytesToBigInt(sig.subarray(1, 33)), s: bytesToBigInt(sig.subarray(33, 65)) };
  try {
    return createTx(signed as Parameters<typeof createTx>[0], { common, freeze: false });
  } catch {
    // Invalid fields: the usual path names them exactly as it always has.
    return undefined;
  }
}

function messageToSign(common: Common, d: Record<string, unknown>): Uint8Array | undefined {
  const { type, nonce, gasLimit, value, chainId, to } = d;
  const input = d.data;
  if (typeof nonce !== 'bigint' || typeof gasLimit !== 'bigint' || typeof value !== 'bigint') return undefined;
  if (typeof chainId !== 'bigint' || chainId !== common.chainId()) return undefined;
  if (!(input instanceof Uint8Array) || (to !== undefined && !(to instanceof Address))) return undefined;
  if (nonce < 0n || gasLimit < 0n || value < 0n) return undefined;
  const toBytes = to ? to.bytes : new Uint8Array(0);
  const u = bigIntToUnpaddedBytes;
  if (type === 0) {
    const gasPrice = d.gasPrice;
    if (typeof gasPrice !== 'bigint' || gasPrice < 0n || !common.gteHardfork('spuriousDragon')) return undefined;
    const empty = new Uint8Array(0);
    return RLP.encode([u(nonce), u(gasPrice), u(gasLimit), toBytes, u(value), input, u(chainId), empty, empty]);
  }
  // Access lists stay with @ethereumjs (their JSON form is converted there).
  const accessList = d.accessList;
  if (accessList !== undefined && !(Array.isArray(accessList) && accessList.length === 0)) return undefined;
  let fields: Uint8Array[];
  if (type === 1) {
    const gasPrice = d.gasPrice;
    if (typeof gasPrice !== 'bigint' || gasPrice < 0n || !common.isActivatedEIP(2930)) return undefined;
    fields = [u(chainId), u(nonce), u(gasPrice), u(gasLimit), toBytes, u(value), input];
  } else if (type === 2) {
    const tip = d.maxPriorityFeePerGas;
    const cap = d.maxFeePerGas;
    if (typeof tip !== 'bigint' || typeof cap !== 'bigint' || tip < 0n || cap < 0n) return undefined;
    if (!common.isActivatedEIP(1559)) return undefined;
    fields = [u(chainId), u(nonce), u(tip), u(cap), u(gasLimit), toBytes, u(value), input];
  } else return undefined;
  const body = RLP.encode([...fields, []]);
  const out = new Uint8Array(body.length + 1);
  out[0] = type;
  out.set(body, 1);
  return out;
}
