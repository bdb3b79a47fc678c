/**
 * ots_/erigon_ parameter shapes (docs/param-shapes.md) and the eth_ strictness beside them.
 * The `erigon` column is what Erigon's Go signatures decode (rpc.BlockNumber and
 * rpc.BlockNumberOrHash: tags, JSON numbers, decimal and hex strings; uint8/uint16/uint64 counts:
 * JSON numbers). The `anvil` column is checked against Anvil 1.7.1, which serves the same ots_
 * methods, on every run. The block a shape names is checked too (the same answer on both chains).
 * eth_ stays as geth decodes it: the execution-apis vectors (test/rpc-compat.test.ts) require it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, httpPeer, startAnvil } from './helpers/devPeers.js';
import { type TestNode, startNode } from './helpers/node.js';

/** Init code of a contract whose runtime code is `0x6000`. */
const INIT = '0x6160006000526002601ef3';

interface Chain {
  peer: Peer;
  /** Block hashes by number. */
  hashes: string[];
  /** The contract and the block that created it. */
  contract: string;
  deployBlock: number;
  sender: string;
  tx: string;
}

type Params = (c: Chain) => unknown[];

interface Row {
  method: string;
  params: Params;
  /** What Erigon's decoding does with the shape. */
  erigon: boolean;
  /** What Anvil does (checked); undefined where Anvil is not a reference (eth_). */
  anvil?: boolean;
  /** Ashlar's answer: Erigon's, or more where Anvil accepts a shape Erigon refuses. */
  ashlar: boolean;
  /** The part of the answer that shows which block the shape named, and its expected value. */
  pick?: (result: unknown) => unknown;
  want?: (c: Chain) => unknown;
}

const row = (
  method: string,
  params: Params,
  peers: { erigon: boolean; anvil?: boolean },
  extra: Partial<Row> = {},
): Row => ({
  method,
  params,
  ...peers,
  ashlar: peers.erigon || peers.anvil === true,
  ...extra,
});
const hashOf = (r: unknown) => (r as { hash?: string } | null)?.hash;
const blockHashOf = (r: unknown) => (r as { block?: { hash?: string } } | null)?.block?.hash;
const headerAt = (n: number) => ({ pick: hashOf, want: (c: Chain) => c.hashes[n] });
const detailsAt = (n: number) => ({ pick: blockHashOf, want: (c: Chain) => c.hashes[n] });
const HEAD = (c: Chain) => c.hashes[c.hashes.length - 1];

const ROWS: Row[] = [
  // erigon_getHeaderByNumber: Otterscan probes ["latest"] on every page load, then reads numbers.
  row('erigon_getHeaderByNumber', () => ['latest'], { erigon: true, anvil: true }, { pick: hashOf, want: HEAD }),
  row('erigon_getHeaderByNumber', () => ['earliest'], { erigon: true, anvil: true }, headerAt(0)),
  row('erigon_getHeaderByNumber', () => ['safe'], { erigon: true, anvil: true }),
  row('erigon_getHeaderByNumber', () => ['finalized'], { erigon: true, anvil: true }),
  row('erigon_getHeaderByNumber', () => ['pending'], { erigon: true, anvil: true }),
  row('erigon_getHeaderByNumber', () => [5], { erigon: true, anvil: true }, headerAt(5)),
  row('erigon_getHeaderByNumber', () => ['0x5'], { erigon: true, anvil: true }, headerAt(5)),
  row('erigon_getHeaderByNumber', () => ['5'], { erigon: true, anvil: true }, headerAt(5)),
  row('erigon_getHeaderByNumber', () => ['0x05'], { erigon: false, anvil: true }, headerAt(5)),
  row('erigon_getHeaderByNumber', () => [-1], { erigon: false, anvil: false }),
  row('erigon_getHeaderByNumber', () => ['soon'], { erigon: false, anvil: false }),
  row('erigon_getHeaderByNumber', () => [null], { erigon: false, anvil: false }),
  row('erigon_getHeaderByNumber', () => ['0x'], { erigon: false, anvil: false }),
  // ots_getBlockDetails: Otterscan sends a JSON number (readBlock parses the URL's number)
  row('ots_getBlockDetails', () => [5], { erigon: true, anvil: true }, detailsAt(5)),
  row('ots_getBlockDetails', () => ['0x5'], { erigon: true, anvil: true }, detailsAt(5)),
  row('ots_getBlockDetails', () => ['5'], { erigon: true, anvil: true }, detailsAt(5)),
  row('ots_getBlockDetails', () => ['latest'], { erigon: true, anvil: true }, { pick: blockHashOf, want: HEAD }),
  row('ots_getBlockDetails', () => ['earliest'], { erigon: true, anvil: true }, detailsAt(0)),
  row('ots_getBlockDetails', () => [-1], { erigon: false, anvil: false }),
  row('ots_getBlockDetails', () => ['soon'], { erigon: false, anvil: false }),
  row('ots_getBlockDetailsByHash', (c) => [c.hashes[5]], { erigon: true, anvil: true }, detailsAt(5)),
  row('ots_getBlockDetailsByHash', () => ['0x12'], { erigon: false, anvil: false }),
  // ots_getBlockTransactions(rpc.BlockNumber, uint8, uint8): Otterscan sends three numbers
  row('ots_getBlockTransactions', (c) => [c.deployBlock, 0, 25], { erigon: true, anvil: true }),
  row('ots_getBlockTransactions', (c) => [`0x${c.deployBlock.toString(16)}`, 0, 25], { erigon: true, anvil: false }),
  row('ots_getBlockTransactions', (c) => [String(c.deployBlock), 0, 25], { erigon: true, anvil: false }),
  row(
    'ots_getBlockTransactions',
    (c) => [c.deployBlock, '0x0', '0x19'],
    { erigon: false, anvil: false },
    { ashlar: true },
  ),
  row('ots_getBlockTransactions', (c) => [c.deployBlock, 0, 256], { erigon: false }),
  // ots_hasCode(address, rpc.BlockNumberOrHash): Otterscan sends "latest" or a JSON number
  row('ots_hasCode', (c) => [c.contract, c.deployBlock], { erigon: true, anvil: true }, { want: () => true }),
  row('ots_hasCode', (c) => [c.contract, c.deployBlock - 1], { erigon: true, anvil: true }, { want: () => false }),
  row(
    'ots_hasCode',
    (c) => [c.contract, String(c.deployBlock - 1)],
    { erigon: true, anvil: true },
    { want: () => false },
  ),
  row(
    'ots_hasCode',
    (c) => [c.contract, `0x${c.deployBlock.toString(16)}`],
    { erigon: true, anvil: true },
    { want: () => true },
  ),
  row('ots_hasCode', (c) => [c.contract, 'latest'], { erigon: true, anvil: true }, { want: () => true }),
  row('ots_hasCode', (c) => [c.contract, 'earliest'], { erigon: true, anvil: true }, { want: () => false }),
  row(
    'ots_hasCode',
    (c) => [c.contract, c.hashes[c.deployBlock - 1]],
    { erigon: true, anvil: false },
    { want: () => false },
  ),
  row(
    'ots_hasCode',
    (c) => [c.contract, { blockNumber: c.deployBlock }],
    { erigon: true, anvil: false },
    { want: () => true },
  ),
  row(
    'ots_hasCode',
    (c) => [c.contract, { blockHash: c.hashes[c.deployBlock] }],
    { erigon: true, anvil: false },
    { want: () => true },
  ),
  row('ots_hasCode', (c) => [c.contract, 'soon'], { erigon: false, anvil: false }),
  // ots_searchTransactions*(address, uint64, uint16): Otterscan sends numbers (0: from the head/genesis)
  row('ots_searchTransactionsBefore', (c) => [c.sender, 0, 25], { erigon: true, anvil: true }),
  row('ots_searchTransactionsAfter', (c) => [c.sender, 0, 25], { erigon: true, anvil: true }),
  row(
    'ots_searchTransactionsBefore',
    (c) => [c.sender, '0x0', '0x19'],
    { erigon: false, anvil: false },
    { ashlar: true },
  ),
  row('ots_searchTransactionsBefore', (c) => [c.sender, 0, 70_000], { erigon: false, anvil: true }, { ashlar: false }),
  row('ots_searchTransactionsBefore', (c) => [c.sender, 'latest', 25], { erigon: false, anvil: false }),
  // ots_getTransactionBySenderAndNonce(address, uint64): Otterscan sends a number
  row('ots_getTransactionBySenderAndNonce', (c) => [c.sender, 0], { erigon: true, anvil: true }, { want: (c) => c.tx }),
  row(
    'ots_getTransactionBySenderAndNonce',
    (c) => [c.sender, '0x0'],
    { erigon: false, anvil: true },
    { want: (c) => c.tx },
  ),
  row(
    'ots_getTransactionBySenderAndNonce',
    (c) => [c.sender, '0'],
    { erigon: false, anvil: true },
    { want: (c) => c.tx },
  ),
  row('ots_getTransactionBySenderAndNonce', (c) => [c.sender, -1], { erigon: false, anvil: false }),
  // hashes and addresses as everywhere
  row('ots_getContractCreator', (c) => [c.contract], { erigon: true, anvil: true }),
  row('ots_traceTransaction', (c) => [c.tx], { erigon: true, anvil: true }),
  row('ots_getTransactionError', (c) => [c.tx], { erigon: true, anvil: true }, { want: () => '0x' }),
  // (no answer compared: Anvil lists the transaction's own top-level creation, Erigon only inner frames)
  row('ots_getInternalOperations', (c) => [c.tx], { erigon: true, anvil: true }),
  row('ots_traceTransaction', () => ['0x1234'], { erigon: false, anvil: false }),
  row('ots_getApiLevel', () => [], { erigon: true, anvil: true }, { want: () => 8 }),
  // eth_ as geth: no JSON numbers, decimal strings or leading zeros (Hardhat and Anvil are laxer here)
  row('eth_getBlockByNumber', () => [5, false], { erigon: false }, { ashlar: false }),
  row('eth_getBlockByNumber', () => ['5', false], { erigon: false }, { ashlar: false }),
  row('eth_getBlockByNumber', () => ['0x05', false], { erigon: false }, { ashlar: false }),
  row('eth_getBlockByNumber', () => ['0x5', false], { erigon: true }, headerAt(5)),
  row('eth_getBalance', (c) => [c.sender, 5], { erigon: false }, { ashlar: false }),
  row('eth_getCode', (c) => [c.contract, 'latest'], { erigon: true }, { want: () => '0x6000' }),
  row('web3_sha3', () => ['abc'], { erigon: false }, { ashlar: false }),
];

async function buildChain(peer: Peer): Promise<Chain> {
  const call = async (method: string, params: unknown[] = []) => {
    const a = await peer.call(method, params);
    if (a.error) throw new Error(`${peer.name} ${method}: ${a.error.message}`);
    return a.result;
  };
  const [sender] = (await call('eth_accounts')) as string[];
  await call('evm_mine');
  await call('evm_mine');
  const tx = (await call('eth_sendTransaction', [{ from: sender, data: INIT }])) as string;
  // Anvil may answer the send before it has mined it: wait for the receipt.
  let receipt: { contractAddress: string; blockNumber: string } | null = null;
  for (let i = 0; i < 200 && receipt === null; i++) {
    receipt = (await call('eth_getTransactionReceipt', [tx])) as typeof receipt;
    if (receipt === null) await new Promise((r) => setTimeout(r, 25));
  }
  if (receipt === null) throw new Error(`${peer.name}: no receipt for ${tx}`);
  for (let i = 0; i < 4; i++) await call('evm_mine');
  const head = Number(await call('eth_blockNumber'));
  const hashes: string[] = [];
  for (let n = 0; n <= head; n++) {
    hashes.push(((await call('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) as { hash: string }).hash);
  }
  return { peer, hashes, contract: receipt.contractAddress, deployBlock: Number(receipt.blockNumber), sender, tx };
}

const label = (r: Row, c: Chain) => `${r.method}(${JSON.stringify(r.params(c))})`;

/** Rows whose answer differs from the expected verdict or block, as readable lines. */
async function mismatches(c: Chain, verdict: (r: Row) => boolean | undefined, ashlar: boolean) {
  const out: string[] = [];
  for (const r of ROWS) {
    const expected = verdict(r);
    if (expected === undefined) continue;
    const a = await c.peer.call(r.method, r.params(c));
    const accepted = a.error === undefined;
    if (accepted !== expected) {
      out.push(`${label(r, c)}: ${a.error ? `${a.error.code} ${a.error.message}` : 'accepted'}`);
    } else if (
      !accepted &&
      ashlar &&
      (a.error?.code !== -32602 || !/^invalid argument \d \(\w+\): /.test(a.error.message))
    ) {
      out.push(`${label(r, c)}: not geth's -32602 wording: ${a.error?.code} ${a.error?.message}`);
    } else if (accepted && r.want) {
      const got = r.pick ? r.pick(a.result) : a.result;
      if (JSON.stringify(got) !== JSON.stringify(r.want(c)))
        out.push(`${label(r, c)}: answered ${JSON.stringify(got)}, want ${JSON.stringify(r.want(c))}`);
    }
  }
  return out;
}

describe('ots_/erigon_ shapes as Erigon reads them (Anvil checked beside)', () => {
  let node: TestNode;
  let anvil: Peer;
  let ours: Chain;
  let theirs: Chain;

  beforeAll(async () => {
    node = await startNode();
    anvil = await startAnvil();
    ours = await buildChain(httpPeer('ashlar', node.url, async () => undefined));
    theirs = await buildChain(anvil);
  }, 60_000);
  afterAll(async () => {
    await anvil?.close();
    await node?.close();
  });

  it('the table is consistent: Ashlar accepts what Erigon accepts', () => {
    for (const r of ROWS) if (r.erigon) expect(r.ashlar, r.method).toBe(true);
  });

  it('Anvil accepts and rejects what the table says, naming the same blocks', async () => {
    expect(await mismatches(theirs, (r) => r.anvil, false)).toEqual([]);
  }, 60_000);

  it('Ashlar accepts what the table says, naming the same blocks, and rejects the rest with -32602', async () => {
    expect(await mismatches(ours, (r) => r.ashlar, true)).toEqual([]);
  }, 60_000);
});
