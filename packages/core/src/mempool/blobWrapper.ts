import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type Blob4844Tx, createBlob4844TxFromBytesArray } from '@ethereumjs/tx';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
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
 * versioned hash (sha256), and the KZG proofs as geth's txpool does (validation.go: one blob
 * proof per blob before Osaka's version-1 sidecars, one cell proof per cell after), with its wording.
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
  if (blobs.length !== hashes.length)
    rejected(`invalid number of ${blobs.length} blobs compared to ${hashes.length} blob hashes`);
  if (commitments.length !== hashes.length)
    rejected(`invalid number of ${commitments.length} blob commitments compared to ${hashes.length} blob hashes`);
  const wantProofs = version === 1 ? hashes.length * CELLS_PER_BLOB : hashes.length;
  for (let i = 0; i < hashes.length; i++) {
    if (blobs[i].length !== BLOB_SIZE) fail(`blob ${i} has ${blobs[i].length} bytes`);
    if (commitments[i].length !== COMMITMENT_SIZE) fail(`commitment ${i} has ${commitments[i].length} bytes`);
    const h = sha256(commitments[i]);
    h[0] = 0x01;
    if (!equalsBytes(h, hexBytes(hashes[i])))
      rejected(`blob ${i}: computed hash ${bytesToHex(h)} mismatches transaction one ${hashes[i]}`);
  }
  if (proofs.length !== wantProofs) rejected(`invalid number of ${proofs.length} blob proofs expected ${wantProofs}`);
  for (const p of proofs) if (p.length !== COMMITMENT_SIZE) fail(`a proof has ${p.length} bytes`);
  verifyProofs(common, { version, blobs, commitments, proofs });
  return { tx, sidecar: { version, blobs, commitments, proofs } };
}

/** geth's txpool rejection of a sidecar that does not verify: its default server error code. */
const rejection = (message: string) => new AshlarError(ErrorCodes.BLOB_SIDECAR, message);
const rejected = (message: string): never => {
  throw rejection(message);
};

function verifyProofs(common: Common, sidecar: BlobSidecar): void {
  const kzg = common.customCrypto.kzg;
  if (kzg === undefined) throw rejection('KZG verification error: no KZG backend');
  const hex = (list: Uint8Array[]) => list.map((b) => bytesToHex(b));
  const blobs = hex(sidecar.blobs);
  const commitments = hex(sidecar.commitments);
  const proofs = hex(sidecar.proofs);
  let ok: boolean;
  try {
    if (sidecar.version === 0) ok = kzg.verifyBlobProofBatch(blobs, commitments, proofs);
    else {
      // One proof per cell: the cells are recomputed from the blobs (as geth's VerifyCellProofs).
      const cells: string[] = [];
      const cellCommitments: string[] = [];
      const indices: number[] = [];
      blobs.forEach((blob, i) => {
        kzg.computeCells(blob).forEach((cell, j) => {
          cells.push(cell);
          cellCommitments.push(commitments[i]);
          indices.push(j);
        });
      });
      ok = kzg.verifyCellKzgProofBatch(cellCommitments, indices, cells, proofs);
    }
  } catch (e) {
    throw rejection(`KZG verification error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!ok)
    rejected(
      sidecar.version === 0
        ? "KZG verification error: invalid blob proof: can't verify opening proof"
        : "KZG verification error: can't verify opening proof",
    );
}

function hexBytes(h: string): Uint8Array {
  return Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
}
