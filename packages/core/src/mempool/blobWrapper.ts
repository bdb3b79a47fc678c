import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type Blob4844Tx, createBlob4844TxFromBytesArray } from '@ethereumjs/tx';
import { equalsBytes } from '@ethereumjs/util';
import { sha256 } from '@noble/hashes/sha2.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';

/** geth's blob pool limit on one transaction with its sidecar. */
export const MAX_BLOB_TX_SIZE = 1024 * 1024;
const BLOB_SIZE = 131072;
const COMMITMENT_SIZE = 48;
/** EIP-7594 (Osaka) sidecars carry one proof per cell, 128 cells per blob. */
const CELLS_PER_BLOB = 128;

export interface BlobSidecar {
  /** 0: one KZG proof per blob (EIP-4844); 1: cell proofs (EIP-7594). */
  version: number;
  blobs: Uint8Array[];
  commitments: Uint8Array[];
  proofs: Uint8Array[];
}

const fail = (message: string): never => {
  throw new AshlarError(ErrorCodes.TX_DECODE, `invalid blob transaction: ${message}`);
};

/** Whether raw bytes are a blob transaction in its network form (with blobs), not its canonical one. */
export function isBlobNetworkWrapper(raw: Uint8Array): boolean {
  if (raw[0] !== 3 || raw.length < 2) return false;
  try {
    const outer = RLP.decode(raw.subarray(1)) as unknown[];
    return Array.isArray(outer) && Array.isArray(outer[0]);
  } catch {
    return false;
  }
}

/**
 * Decodes `0x03 || rlp([tx, (version,) blobs, commitments, proofs])` into the canonical
 * transaction and its sidecar. The sidecar's shape is checked, and every commitment against its
 * versioned hash (sha256, no KZG needed); the KZG proofs are not verified, as no KZG library is
 * installed (see chain/kzgUnavailable.ts).
 */
export function decodeBlobNetworkWrapper(raw: Uint8Array, common: Common): { tx: Blob4844Tx; sidecar: BlobSidecar } {
  if (raw.length > MAX_BLOB_TX_SIZE)
    throw new AshlarError(
      ErrorCodes.OVERSIZED,
      `oversized data: transaction size ${raw.length}, limit ${MAX_BLOB_TX_SIZE}`,
    );
  const outer = RLP.decode(raw.subarray(1)) as unknown as (Uint8Array | Uint8Array[])[];
  const versioned = outer.length === 5;
  if (outer.length !== 4 && !versioned) fail(`network wrapper has ${outer.length} fields`);
  const [fields, ...rest] = outer;
  const version = versioned ? Number((rest.shift() as Uint8Array)[0] ?? 0) : 0;
  const [blobs, commitments, proofs] = rest as Uint8Array[][];
  if (version > 1) fail(`unknown sidecar version ${version}`);
  let tx: Blob4844Tx;
  try {
    tx = createBlob4844TxFromBytesArray(fields as unknown as Parameters<typeof createBlob4844TxFromBytesArray>[0], {
      common,
    });
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  const hashes = tx.blobVersionedHashes;
  if (blobs.length !== hashes.length || commitments.length !== hashes.length)
    fail(`${hashes.length} versioned hashes, ${blobs.length} blobs, ${commitments.length} commitments`);
  const wantProofs = version === 1 ? hashes.length * CELLS_PER_BLOB : hashes.length;
  if (proofs.length !== wantProofs) fail(`${proofs.length} proofs, want ${wantProofs}`);
  for (let i = 0; i < hashes.length; i++) {
    if (blobs[i].length !== BLOB_SIZE) fail(`blob ${i} has ${blobs[i].length} bytes`);
    if (commitments[i].length !== COMMITMENT_SIZE) fail(`commitment ${i} has ${commitments[i].length} bytes`);
    const h = sha256(commitments[i]);
    h[0] = 0x01;
    if (!equalsBytes(h, hexBytes(hashes[i]))) fail(`commitment ${i} does not match versioned hash ${hashes[i]}`);
  }
  return { tx, sidecar: { version, blobs, commitments, proofs } };
}

function hexBytes(h: string): Uint8Array {
  return Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
}
