/**
 * Conformance with the Ethereum execution-apis rpc-compat vectors, the suite hive runs against
 * geth, Nethermind, Besu, Erigon and Reth: a node on the vectors' genesis.json with chain.rlp
 * imported (head 54, also safe and finalized), every `.io` file replayed in hive's order over
 * HTTP and compared as hive does (helpers/rpcCompat.ts).
 *
 * The figure is the pass count over all 232 vectors. It is a ratchet: PASSING is the count
 * this code reaches today and may only go up; PASSING_GROUPS are the method folders whose
 * every vector passes, one test each, so a regression names the method.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kernel, createKernel, exportBlocks, importBlocks } from '@ashlar/core';
import { rpcPlugins } from '@ashlar/rpc';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { startServer, type RunningServer } from 'ashlar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TESTS_DIR, type VectorResult, loadVectors, report, runVectors } from './helpers/rpcCompat.js';

/** Vectors passing today (of 232); raise it as methods are fixed, never lower it. */
const PASSING = 232;

/** Method folders in which every vector passes (all of them). */
const PASSING_GROUPS: readonly string[] = [
  'debug_getRawBlock',
  'debug_getRawHeader',
  'debug_getRawReceipts',
  'debug_getRawTransaction',
  'debug_traceBlockByHash',
  'debug_traceBlockByNumber',
  'debug_traceTransaction',
  'eth_baseFee',
  'eth_blobBaseFee',
  'eth_blockNumber',
  'eth_call',
  'eth_capabilities',
  'eth_chainId',
  'eth_config',
  'eth_createAccessList',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getStorageValues',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_sendRawTransaction',
  'eth_simulateV1',
  'eth_syncing',
  'net_version',
  'testing_buildBlockV1',
  'txpool_content',
  'txpool_contentFrom',
  'txpool_status',
];

const HEAD_HASH = '0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7';

let kernel: Kernel;
let server: RunningServer;
let chainRlp: Uint8Array;
let results: VectorResult[];

beforeAll(async () => {
  const genesis = JSON.parse(readFileSync(join(TESTS_DIR, 'genesis.json'), 'utf8'));
  // No automine: eth_sendRawTransaction vectors only fill the pool, as on hive's geth, and the
  // txpool_* vectors after them read it back. Only the JSON-RPC plugins: the vectors test nothing else.
  kernel = await createKernel({ chain: { genesis }, mining: { automine: false }, plugins: rpcPlugins() });
  chainRlp = readFileSync(join(TESTS_DIR, 'chain.rlp'));
  const imported = await importBlocks(kernel, chainRlp);
  if (imported.error) throw new Error(`chain.rlp did not import: ${JSON.stringify(imported.error)}`);
  server = await startServer(kernel, { port: 0 });
  const send = async (body: string): Promise<string> => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(5_000),
    });
    return res.text();
  };
  results = await runVectors(loadVectors(), send);
  process.stdout.write(`${report(results)}\n`);
}, 80_000);

afterAll(async () => {
  await server?.close();
  await kernel?.close();
});

describe('the test chain', () => {
  it('imports genesis.json + chain.rlp up to block 54', () => {
    expect(kernel.chain.head.number).toBe(54n);
    expect(bytesToHex(kernel.chain.head.hash)).toBe(HEAD_HASH);
  });

  it('exports back to chain.rlp byte for byte', async () => {
    const parts: Uint8Array[] = [];
    for await (const rlp of exportBlocks(kernel)) parts.push(rlp);
    expect(bytesToHex(concatBytes(...parts))).toBe(bytesToHex(chainRlp));
  });
});

describe('execution-apis rpc-compat vectors', () => {
  it(`pass: at least ${PASSING} of 232`, () => {
    expect(results).toHaveLength(232);
    const passed = results.filter((r) => r.failures.length === 0).length;
    expect(passed).toBeGreaterThanOrEqual(PASSING);
  });

  for (const group of PASSING_GROUPS) {
    it(`${group}: every vector passes`, () => {
      const mine = results.filter((r) => r.vector.group === group);
      expect(mine.length).toBeGreaterThan(0);
      const failing = mine.filter((r) => r.failures.length > 0);
      expect(failing.map((r) => `${r.vector.name}: ${r.failures[0].diff.join('; ')}`)).toEqual([]);
    });
  }
});
