import * as PersonalMessage from 'ox/PersonalMessage';
import * as TypedData from 'ox/TypedData';
import { signHash } from '../chain/nativeCrypto.js';

/** An EIP-712 request as eth_signTypedData_v4 receives it (JSON: numbers may be strings). */
export interface TypedDataInput {
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  domain?: Record<string, unknown>;
  message: Record<string, unknown>;
}

/** r ‖ s ‖ v with v = 27 + recovery id: the 65 bytes eth_sign, personal_sign and EIP-712 signers return. */
function sign65(hash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const rec = signHash(hash, privateKey); // [recovery id, r, s]
  const out = new Uint8Array(65);
  out.set(rec.subarray(1, 65), 0);
  out[64] = 27 + rec[0];
  return out;
}

const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));

/** EIP-191 version 0x45: keccak("\x19Ethereum Signed Message:\n" + length + data), signed. */
export function signPersonalMessage(data: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return sign65(fromHex(PersonalMessage.getSignPayload(data)), privateKey);
}

/** EIP-712 (eth_signTypedData_v4): hashed by ox, signed with the dev key. */
export function signTypedData(input: TypedDataInput, privateKey: Uint8Array): Uint8Array {
  const types = { ...input.types };
  const domainType = types.EIP712Domain;
  const definition = {
    types,
    primaryType: input.primaryType,
    domain: domainType ? normalise(types, 'EIP712Domain', input.domain ?? {}) : (input.domain ?? {}),
    message: normalise(types, input.primaryType, input.message),
  };
  const payload = TypedData.getSignPayload(definition as unknown as Parameters<typeof TypedData.getSignPayload>[0]);
  return sign65(fromHex(payload), privateKey);
}

/**
 * JSON carries big integers as decimal or hex strings (MetaMask, ethers and viem all send
 * them so); ox encodes bigints. Walks the struct by its declared types and converts them.
 */
function normalise(
  types: TypedDataInput['types'],
  typeName: string,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const fields = types[typeName];
  if (!fields) return value;
  const out: Record<string, unknown> = { ...value };
  for (const f of fields) if (f.name in out) out[f.name] = normaliseField(types, f.type, out[f.name]);
  return out;
}

function normaliseField(types: TypedDataInput['types'], type: string, value: unknown): unknown {
  if (type.endsWith(']')) {
    const inner = type.slice(0, type.lastIndexOf('['));
    return Array.isArray(value) ? value.map((v) => normaliseField(types, inner, v)) : value;
  }
  if (types[type]) return normalise(types, type, value as Record<string, unknown>);
  if (/^u?int\d*$/.test(type) && (typeof value === 'string' || typeof value === 'number')) return BigInt(value);
  return value;
}
