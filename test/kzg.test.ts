/**
 * EIP-4844 KZG: the point-evaluation precompile (0x0a) and blob sidecars on eth_sendRawTransaction.
 *
 * Vectors from ethereum/c-kzg-4844, tests/verify_kzg_proof/kzg-mainnet/ (Apache-2.0; generated
 * from the consensus-specs reference implementation with the mainnet ceremony setup):
 *   verify_kzg_proof_case_correct_proof_31ebd010e6098750 (output: true)
 *   verify_kzg_proof_case_incorrect_proof_395cf6d697d1a743 (output: false)
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Kernel, createKernel, kzgLoaded } from '@ashlar/core';
import { rpcPlugins } from '@ashlar/rpc';
import { type Input, RLP } from '@ethereumjs/rlp';
import { type Blob4844Tx, createBlob4844Tx } from '@ethereumjs/tx';
import { bytesToHex, computeVersionedHash, concatBytes, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

const CORRECT = {
  commitment: '0x8f59a8d2a1a625a17f3fea0fe5eb8c896db3764f3185481bc22f91b4aaffcca25f26936857bc3a7c2539ea8ec3a952b7',
  z: '0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000',
  y: '0x1522a4a7f34e1ea350ae07c29c96c7e79655aa926122e95fe69fcbd932ca49e9',
  proof: '0xa62ad71d14c5719385c0686f1871430475bf3a00f0aa3f7b8dd99a9abc2160744faf0070725e00b60ad9a026a15b1a8c',
};
const INCORRECT = {
  commitment: '0xa572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e',
  z: '0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000',
  y: '0x0000000000000000000000000000000000000000000000000000000000000002',
  proof: '0x97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb',
};
/** EIP-4844: FIELD_ELEMENTS_PER_BLOB (4096) ‖ BLS_MODULUS, each a 32-byte word. */
const PRECOMPILE_SUCCESS =
  '0x000000000000000000000000000000000000000000000000000000000000100073eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001';
const POINT_EVALUATION = '0x000000000000000000000000000000000000000a';

/** The precompile's input: versioned hash (0x01 ‖ sha256(commitment)[1:]) ‖ z ‖ y ‖ commitment ‖ proof. */
function precompileInput(v: typeof CORRECT): string {
  const hash = createHash('sha256').update(hexToBytes(v.commitment)).digest();
  hash[0] = 0x01;
  return `0x${hash.toString('hex')}${[v.z, v.y, v.commitment, v.proof].map((h) => h.slice(2)).join('')}`;
}

let kernel: Kernel;

beforeAll(async () => {
  // Prague: sidecars carry one proof per blob (version 0); Osaka's cell proofs take seconds to compute in JS.
  kernel = await createKernel({ chain: { hardfork: 'prague' }, plugins: rpcPlugins() });
});
afterAll(async () => {
  await kernel?.close();
});

const call = (data: string) =>
  kernel.request({ method: 'eth_call', params: [{ to: POINT_EVALUATION, data }, 'latest'] });

describe('KZG point evaluation precompile (0x0a)', () => {
  it('is not loaded until a KZG operation needs it', () => {
    expect(kzgLoaded()).toBe(false);
  });

  it('returns FIELD_ELEMENTS_PER_BLOB ‖ BLS_MODULUS for a valid proof (c-kzg correct_proof vector)', async () => {
    expect(await call(precompileInput(CORRECT))).toBe(PRECOMPILE_SUCCESS);
    expect(kzgLoaded()).toBe(true);
  }, 60_000);

  it('fails for the published incorrect proof and for a corrupted valid one', async () => {
    await expect(call(precompileInput(INCORRECT))).rejects.toThrow();
    const corrupted = { ...CORRECT, y: `${CORRECT.y.slice(0, -2)}ea` };
    await expect(call(precompileInput(corrupted))).rejects.toThrow();
  }, 60_000);
});

describe('blob sidecars on eth_sendRawTransaction', () => {
  const key = hexToBytes(DEV_ACCOUNTS[0].privateKey as `0x${string}`);
  const blobTx = (nonce: bigint) =>
    createBlob4844Tx(
      {
        chainId: kernel.chain.common.chainId(),
        nonce,
        to: DEV_ACCOUNTS[1].address,
        gasLimit: 21000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n,
        maxFeePerBlobGas: 10n ** 10n,
        blobsData: ['hello blobs'],
      },
      { common: kernel.chain.common },
    ).sign(key);

  /** EIP-4844's network form, 0x03 ‖ rlp([tx, blobs, commitments, proofs]), with parts replaced. */
  const wrapper = (tx: Blob4844Tx, replace: { commitments?: Uint8Array[]; proofs?: Uint8Array[] }): string => {
    const bytes = (list: string[] | undefined) => (list ?? []).map((h) => hexToBytes(h as `0x${string}`));
    const body = RLP.encode([
      tx.raw(),
      bytes(tx.blobs),
      replace.commitments ?? bytes(tx.kzgCommitments),
      replace.proofs ?? bytes(tx.kzgProofs),
    ] as Input);
    return bytesToHex(concatBytes(Uint8Array.of(3), body));
  };

  it('accepts a blob transaction whose proofs verify and mines it with its blob gas', async () => {
    const tx = blobTx(0n);
    const hash = await kernel.request({
      method: 'eth_sendRawTransaction',
      params: [bytesToHex(tx.serializeNetworkWrapper())],
    });
    expect(hash).toBe(bytesToHex(tx.hash()));
    const receipt = (await kernel.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as Record<
      string,
      string
    >;
    expect(receipt.status).toBe('0x1');
    expect(receipt.blobGasUsed).toBe('0x20000');
    // EIP-4844's receipt and block fields: one blob is 2^17 blob gas, priced at the block's blob base fee.
    const block = (await kernel.request({
      method: 'eth_getBlockByNumber',
      params: [receipt.blockNumber, false],
    })) as Record<string, string>;
    expect(block.blobGasUsed).toBe('0x20000');
    expect(receipt.blobGasPrice).toMatch(/^0x[0-9a-f]+$/);
  }, 60_000);

  it("rejects a corrupted blob proof with geth's txpool error", async () => {
    const tx = blobTx(1n);
    const proof = hexToBytes(tx.kzgProofs?.[0] as `0x${string}`);
    proof[47] ^= 1;
    const err = await kernel
      .request({ method: 'eth_sendRawTransaction', params: [wrapper(tx, { proofs: [proof] })] })
      .catch((e: { code: number; message: string }) => e);
    expect(err).toMatchObject({ code: -32000 });
    expect((err as Error).message).toMatch(/^KZG verification error: /);
  }, 60_000);

  it("rejects a sidecar whose blob count does not match its versioned hashes with geth's wording", async () => {
    const tx = blobTx(1n);
    const body = RLP.encode([tx.raw(), [], [], []] as Input);
    const err = await kernel
      .request({ method: 'eth_sendRawTransaction', params: [bytesToHex(concatBytes(Uint8Array.of(3), body))] })
      .catch((e: { code: number; message: string }) => e);
    expect(err).toMatchObject({ code: -32000, message: 'invalid number of 0 blobs compared to 1 blob hashes' });
  }, 60_000);

  it("rejects a commitment that does not match its versioned hash with geth's wording", async () => {
    const tx = blobTx(1n);
    const err = await kernel
      .request({
        method: 'eth_sendRawTransaction',
        params: [wrapper(tx, { commitments: [hexToBytes(CORRECT.commitment)] })],
      })
      .catch((e: { code: number; message: string }) => e);
    expect(err).toMatchObject({ code: -32000 });
    expect((err as Error).message).toMatch(/^blob 0: computed hash 0x01[0-9a-f]{62} mismatches transaction one 0x01/);
  }, 60_000);
});

/**
 * Osaka (EIP-7594) sidecars, version 1: one KZG proof per cell, 128 cells per blob. The proofs
 * are a fixture (test/fixtures/kzg/osaka-cell-proofs.json): computing them takes ~10 s in JS.
 */
describe('cell-proof sidecars on the default hardfork', () => {
  const fixture = JSON.parse(
    readFileSync(new URL('./fixtures/kzg/osaka-cell-proofs.json', import.meta.url), 'utf8'),
  ) as {
    commitment: string;
    cellProofs: string[];
  };
  const blob = hexToBytes(
    `0x${Array.from({ length: 4096 }, (_, i) => (BigInt(i) * 7919n + 3n).toString(16).padStart(64, '0')).join('')}`,
  );
  let osaka: Kernel;
  beforeAll(async () => {
    osaka = await createKernel({ plugins: rpcPlugins() });
  });
  afterAll(async () => {
    await osaka?.close();
  });

  const send = (proofs: Uint8Array[]) => {
    const tx = createBlob4844Tx(
      {
        chainId: osaka.chain.common.chainId(),
        nonce: 0n,
        to: DEV_ACCOUNTS[1].address,
        gasLimit: 21000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n,
        maxFeePerBlobGas: 10n ** 10n,
        blobVersionedHashes: [computeVersionedHash(fixture.commitment as `0x${string}`, 1)],
      },
      { common: osaka.chain.common },
    ).sign(hexToBytes(DEV_ACCOUNTS[0].privateKey as `0x${string}`));
    // 0x03 ‖ rlp([tx, version 1, blobs, commitments, cell proofs])
    const body = RLP.encode([
      tx.raw(),
      Uint8Array.of(1),
      [blob],
      [hexToBytes(fixture.commitment as `0x${string}`)],
      proofs,
    ] as Input);
    return osaka
      .request({ method: 'eth_sendRawTransaction', params: [bytesToHex(concatBytes(Uint8Array.of(3), body))] })
      .then(
        (hash) => ({ hash, tx }),
        (e: { code: number; message: string }) => ({ error: e, tx }),
      );
  };
  const proofs = () => fixture.cellProofs.map((p) => hexToBytes(p as `0x${string}`));

  it("rejects a corrupted cell proof with geth's wording", async () => {
    const bad = proofs();
    bad[5] = bad[6];
    const out = await send(bad);
    expect(out).toMatchObject({ error: { code: -32000 } });
    expect((out as { error: Error }).error.message).toMatch(/^KZG verification error: /);
  }, 60_000);

  it('rejects a sidecar with too few cell proofs', async () => {
    const out = await send(proofs().slice(0, 127));
    expect((out as { error: Error }).error.message).toBe('invalid number of 127 blob proofs expected 128');
  }, 60_000);

  it('accepts 128 valid cell proofs', async () => {
    const out = await send(proofs());
    expect(out).toMatchObject({ hash: bytesToHex(out.tx.hash()) });
  }, 60_000);
});
