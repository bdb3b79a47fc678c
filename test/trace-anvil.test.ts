/**
 * Differential test: the same transactions on Ashlar and on Anvil (@foundry-rs/anvil, same
 * mnemonic and chain id), their callTracer and trace_transaction output compared field by field.
 * The only differences allowed are the documented ones (docs/tracing.md):
 * - callTracer's top `gas`: Ashlar gives the transaction's gas limit (geth), Anvil the limit less
 *   intrinsic gas;
 * - error wordings where Anvil prints revm's names (a write in a static call) instead of geth's
 *   and OpenEthereum's;
 * - `blockHash` (the two chains' headers differ: coinbase, timestamps).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startAnvil } from './helpers/devPeers.js';
import { startNode, type TestNode } from './helpers/node.js';
import { ADDR, type Json, type Rpc, type TraceChain, buildTraceChain, rpcClient } from './helpers/traceChain.js';

/** Anvil's (revm's) error names → geth's callTracer and OpenEthereum's Parity wordings. */
const ANVIL_ERRORS: Record<string, { geth: string; parity: string }> = {
  StateChangeDuringStaticCall: { geth: 'write protection', parity: 'Mutable Call In Static Context' },
};

/** Field-by-field differences, as `path: ours ≠ anvil` lines. */
function differences(ours: Json | undefined, theirs: Json | undefined, path = '$'): string[] {
  if (ours !== null && theirs !== null && typeof ours === 'object' && typeof theirs === 'object') {
    if (Array.isArray(ours) !== Array.isArray(theirs)) return [`${path}: array vs object`];
    const keys = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
    return [...keys].flatMap((k) =>
      differences((ours as Record<string, Json>)[k], (theirs as Record<string, Json>)[k], `${path}.${k}`),
    );
  }
  return JSON.stringify(ours) === JSON.stringify(theirs)
    ? []
    : [`${path}: ${JSON.stringify(ours)} ≠ ${JSON.stringify(theirs)}`];
}

/** Anvil's call trace with the documented differences mapped to what Ashlar (geth) gives. */
function normalizeCall(frame: Record<string, Json>, topGas?: string): Record<string, Json> {
  const out: Record<string, Json> = { ...frame };
  if (topGas !== undefined) out.gas = topGas;
  if (typeof out.error === 'string' && ANVIL_ERRORS[out.error]) out.error = ANVIL_ERRORS[out.error].geth;
  if (Array.isArray(out.calls)) out.calls = out.calls.map((c) => normalizeCall(c as Record<string, Json>));
  return out;
}

function normalizeParity(traces: Record<string, Json>[]): Record<string, Json>[] {
  return traces.map((t) => {
    const { blockHash: _h, ...rest } = t;
    if (typeof rest.error === 'string' && ANVIL_ERRORS[rest.error]) rest.error = ANVIL_ERRORS[rest.error].parity;
    return rest;
  });
}

describe('traces against Anvil', () => {
  let node: TestNode;
  let anvil: Peer;
  let ours: Rpc;
  let theirs: Rpc;
  let chainOurs: TraceChain;
  let chainTheirs: TraceChain;

  beforeAll(async () => {
    [node, anvil] = await Promise.all([startNode(), startAnvil()]);
    ours = rpcClient(node.url);
    theirs = rpcClient(anvil.url as string);
    chainOurs = await buildTraceChain(ours);
    chainTheirs = await buildTraceChain(theirs);
  }, 30_000);
  afterAll(async () => {
    await anvil?.close();
    await node?.close();
  });

  it('runs the same transactions (same hashes, senders, created addresses)', () => {
    expect(chainOurs).toEqual(chainTheirs);
  });

  const names = ['nested', 'increment', 'fail', 'panic', 'deploy', 'deploy2', 'plainC'] as const;

  for (const name of names) {
    it(`callTracer (withLog) of ${name} matches field by field`, async () => {
      const hash = chainOurs.tx[name];
      const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
      const [a, b] = await Promise.all([
        ours.call<Record<string, Json>>('debug_traceTransaction', [hash, config]),
        theirs.call<Record<string, Json>>('debug_traceTransaction', [hash, config]),
      ]);
      const tx = await ours.call<Record<string, string>>('eth_getTransactionByHash', [hash]);
      // geth's top gas is the transaction's limit; Anvil's is below it by the intrinsic gas.
      expect(a.gas).toBe(tx.gas);
      expect(BigInt(String(b.gas))).toBeLessThan(BigInt(tx.gas));
      expect(differences(a, normalizeCall(b, tx.gas))).toEqual([]);
    });

    it(`trace_transaction of ${name} matches field by field`, async () => {
      const hash = chainOurs.tx[name];
      const [a, b] = await Promise.all([
        ours.call<Record<string, Json>[]>('trace_transaction', [hash]),
        theirs.call<Record<string, Json>[]>('trace_transaction', [hash]),
      ]);
      expect(a.length).toBeGreaterThan(0);
      expect(differences(normalizeParity(a) as Json, normalizeParity(b) as Json)).toEqual([]);
    });
  }

  it('ots_getTransactionError and ots_getInternalOperations agree with Anvil', async () => {
    for (const name of ['fail', 'panic', 'increment'] as const) {
      const h = chainOurs.tx[name];
      expect(await ours.call('ots_getTransactionError', [h])).toEqual(
        await theirs.call('ots_getTransactionError', [h]),
      );
    }
    for (const name of ['deploy', 'deploy2', 'nested'] as const) {
      const h = chainOurs.tx[name];
      expect(await ours.call('ots_getInternalOperations', [h])).toEqual(
        await theirs.call('ots_getInternalOperations', [h]),
      );
    }
  });

  it('ots_searchTransactionsBefore/After find transactions that reached an address only inside calls, as Anvil', async () => {
    // C is called inside `nested` and directly by `plainC`; S only inside `nested`. B only receives
    // S's self-destruct inside `nested`: Erigon's call-trace index records a SELFDESTRUCT's
    // beneficiary (its tracer enters a frame to it), Anvil 1.7.1 does not, so B is checked alone.
    const hashes = async (rpc: Rpc, method: string, address: string) =>
      (await rpc.call<{ txs: { hash: string }[] }>(method, [address, 0, 25])).txs.map((t) => t.hash);
    for (const method of ['ots_searchTransactionsBefore', 'ots_searchTransactionsAfter']) {
      for (const address of [ADDR.C, ADDR.S, chainOurs.counter]) {
        const [a, b] = await Promise.all([hashes(ours, method, address), hashes(theirs, method, address)]);
        expect(a, `${method} ${address}`).toEqual(b);
      }
      expect(await hashes(ours, method, ADDR.B)).toEqual([chainOurs.tx.nested]);
      expect(await hashes(ours, method, ADDR.C)).toEqual([chainOurs.tx.plainC, chainOurs.tx.nested]);
    }
  });

  it('4byteTracer agrees with Anvil on every transaction', async () => {
    for (const name of names) {
      const hash = chainOurs.tx[name];
      const config = { tracer: '4byteTracer' };
      expect(await ours.call('debug_traceTransaction', [hash, config])).toEqual(
        await theirs.call('debug_traceTransaction', [hash, config]),
      );
    }
  });

  it('trace_filter agrees with Anvil: address sets, block range, after and count', async () => {
    const head = await ours.call<string>('eth_blockNumber');
    const filters: Record<string, Json>[] = [
      { fromBlock: '0x1', toBlock: head },
      { fromBlock: '0x1', toBlock: head, toAddress: [chainOurs.counter] },
      { fromBlock: '0x1', toBlock: head, fromAddress: [chainOurs.factory] },
      { fromBlock: '0x1', toBlock: head, fromAddress: [chainOurs.from], after: 2, count: 3 },
      // both sets: a trace matching either (Erigon's and reth's default union)
      { fromBlock: '0x1', toBlock: head, fromAddress: [chainOurs.factory], toAddress: [chainOurs.counter] },
    ];
    for (const f of filters) {
      const [a, b] = await Promise.all([
        ours.call<Record<string, Json>[]>('trace_filter', [f]),
        theirs.call<Record<string, Json>[]>('trace_filter', [f]),
      ]);
      expect(a.length, JSON.stringify(f)).toBeGreaterThan(0);
      expect(differences(normalizeParity(a) as Json, normalizeParity(b) as Json), JSON.stringify(f)).toEqual([]);
    }
  });
});
