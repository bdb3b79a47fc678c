import type { KZG } from '@ethereumjs/util';

/**
 * A stand-in for a KZG library. @ethereumjs/tx refuses to decode any blob transaction, even in
 * canonical block form (no blobs, nothing to verify), unless `customCrypto.kzg` is set; none of
 * the KZG packages (c-kzg, kzg-wasm, micro-eth-signer's kzg) is installed here. With this stub
 * blob transactions decode and execute; every actual KZG operation (the point-evaluation
 * precompile 0x0a, blob sidecars) throws, so the precompile answers as for an invalid proof.
 * Replace it with a real KZG backend once one is a dependency.
 */
function unavailable(): never {
  throw new Error('KZG is not available: no KZG library is installed (c-kzg, kzg-wasm or micro-eth-signer)');
}

export const kzgUnavailable: KZG = {
  blobToKzgCommitment: unavailable,
  computeBlobProof: unavailable,
  verifyProof: unavailable,
  verifyBlobProofBatch: unavailable,
  computeCells: unavailable,
  computeCellsAndProofs: unavailable,
  recoverCellsAndProofs: unavailable,
  verifyCellKzgProofBatch: unavailable,
};
