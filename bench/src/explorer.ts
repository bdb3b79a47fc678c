// The explorer's bench (issue 3): index a chain of 100,000 transactions among 1,000 addresses,
// half of them ERC-20 transfers (quick: 5,000), in-process; report what indexing costs the
// chain (automined tx/s with the explorer on ÷ off) and the latency of the explorer's hottest
// pages at 1,000 transactions and at the full size (each page should stay within 1.5×).
//
//   node --conditions=@ashlar/source --import tsx bench/src/explorer.ts [--quick]
import { pathToFileURL } from 'node:url';
import { createTx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString, generateAddress } from '@ethereumjs/util';
import { createNode } from 'ashlar';
import { tokenDeployData } from './benchToken.js';

type Kernel = Awaited<ReturnType<typeof createNode>>;

const ADDRESSES = 1000;
const GWEI = 1_000_000_000n;

const transferData = (to: string, amount: bigint) =>
  `0xa9059cbb${to.slice(2).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;

/**
 * The workload: every transaction involves the whale (dev account 0), so its lists are as long
 * as the chain (page 20 exists at 1,000 transactions); the other 999 accounts take turns.
 * Per four: whale → token → account, account → whale coins, twice.
 */
function signWorkload(kernel: Kernel, total: number): { raws: string[]; token: string; whale: string } {
  const accounts = kernel.chain.accounts;
  const whale = accounts[0];
  const nonces = new Array<number>(accounts.length).fill(0);
  const common = kernel.chain.common;
  const sign = (from: number, to: string | undefined, data: string, value: bigint, gasLimit: bigint) => {
    const tx = createTx(
      {
        type: 2,
        nonce: nonces[from]++,
        to,
        value,
        data: data as `0x${string}`,
        gasLimit,
        maxFeePerGas: 100n * GWEI,
        maxPriorityFeePerGas: GWEI,
        chainId: common.chainId(),
      },
      { common },
    ).sign(accounts[from].privateKey);
    return bytesToHex(tx.serialize());
  };
  const token = bytesToHex(generateAddress(whale.address.bytes, new Uint8Array(0)));
  const raws = [sign(0, undefined, tokenDeployData(), 0n, 2_000_000n)];
  for (let i = 1; i < total; i++) {
    const other = 1 + (i % (ADDRESSES - 1));
    if (i % 2 === 1)
      raws.push(sign(0, token, transferData(accounts[other].address.toString(), BigInt(i)), 0n, 100_000n));
    else raws.push(sign(other, whale.address.toString(), '0x', BigInt(i), 21_000n));
  }
  return { raws, token, whale: whale.address.toString() };
}

async function get(
  kernel: Kernel,
  path: string,
): Promise<{ status: number; body: { next_page_params?: Record<string, unknown> | null } }> {
  const u = new URL(path, 'http://bench');
  const found = kernel.routes.lookup('GET', u.pathname);
  if (!found) throw new Error(`no route for ${path}`);
  const res = await found.handler({ method: 'GET', path: u.pathname, params: found.params, query: u.searchParams });
  // What a transport does with it: the serialization is part of the latency.
  JSON.stringify(res.body);
  return res as { status: number; body: { next_page_params?: Record<string, unknown> | null } };
}

/** The path of page `n` of a list, following next_page_params from page 1. */
async function pagePath(kernel: Kernel, path: string, n: number): Promise<string> {
  let current = path;
  for (let page = 1; page < n; page++) {
    const { body } = await get(kernel, current);
    if (!body.next_page_params) throw new Error(`${path} has fewer than ${n} pages`);
    const q = new URLSearchParams(body.next_page_params as Record<string, string>).toString();
    current = `${path}${path.includes('?') ? '&' : '?'}${q}`;
  }
  return current;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

interface Latency {
  p50: number;
  p99: number;
}

async function latencies(kernel: Kernel, whale: string, rounds: number): Promise<Record<string, Latency>> {
  const endpoints: Record<string, string> = {
    'addresses/{hash}/transactions p1': `/api/v2/addresses/${whale}/transactions`,
    'addresses/{hash}/transactions p20': await pagePath(kernel, `/api/v2/addresses/${whale}/transactions`, 20),
    transactions: '/api/v2/transactions',
    blocks: '/api/v2/blocks',
    'addresses/{hash}/token-transfers': `/api/v2/addresses/${whale}/token-transfers`,
    'search?q=': '/api/v2/search?q=bench',
  };
  // Round-robin over the endpoints, so a garbage collection lands on all of them alike.
  const names = Object.keys(endpoints);
  for (const name of names) for (let i = 0; i < 5; i++) await get(kernel, endpoints[name]);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < rounds; i++) {
    for (const name of names) {
      const t = performance.now();
      const res = await get(kernel, endpoints[name]);
      times[name].push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${endpoints[name]}: ${res.status}`);
    }
  }
  const out: Record<string, Latency> = {};
  for (const name of names) {
    const sorted = times[name].sort((x, y) => x - y);
    out[name] = { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
  }
  return out;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** Transactions sent to one chain before the other gets its turn. */
const CHUNK = 500;

/** Sends `raws[from..to)`, automined; returns the milliseconds it took. */
async function send(kernel: Kernel, raws: string[], from: number, to: number): Promise<number> {
  const t = performance.now();
  for (let i = from; i < to; i++) await kernel.request({ method: 'eth_sendRawTransaction', params: [raws[i]] });
  return performance.now() - t;
}

export async function explorerBench(quick: boolean): Promise<Record<string, unknown>> {
  const total = quick ? 5_000 : 100_000;
  /** Transactions over which on and off are compared (the same ones, from the same empty chain). */
  const compared = Math.min(total, quick ? 5_000 : 10_000);
  const rounds = quick ? 100 : 300;
  const options = { chain: { accounts: ADDRESSES }, mining: { automine: true } };

  const signer = await createNode({ ...options, explorer: false });
  const { raws, token, whale } = signWorkload(signer, total);
  await signer.close();

  // On and off side by side, in alternating chunks of the same transactions: both chains grow
  // alike and share the process's heap and JIT state, so the ratio is not an artefact of order.
  const off = await createNode({ ...options, explorer: false });
  const on = await createNode({ ...options, explorer: true });
  const time = { on: 0, off: 0 };
  let at1k: Record<string, Latency> | undefined;
  for (let from = 0; from < compared; from += CHUNK) {
    const to = Math.min(compared, from + CHUNK);
    time.off += await send(off, raws, from, to);
    time.on += await send(on, raws, from, to);
    if (to === 1_000) at1k = await latencies(on, whale, rounds);
  }
  await off.close();
  const rateOff = Math.round((compared / time.off) * 1000);
  const rateOn = Math.round((compared / time.on) * 1000);
  let rateRest: number | undefined;
  if (compared < total) rateRest = Math.round(((total - compared) / (await send(on, raws, compared, total))) * 1000);
  if (!at1k) throw new Error('the chain never reached 1,000 transactions');
  const atFull = await latencies(on, whale, rounds);
  await on.close();

  const latency: Record<string, unknown> = {};
  for (const name of Object.keys(at1k)) {
    latency[name] = {
      at1k: at1k[name],
      [`at${total / 1000}k`]: atFull[name],
      p50Ratio: round(atFull[name].p50 / at1k[name].p50),
    };
  }
  return {
    transactions: total,
    addresses: ADDRESSES,
    token: createAddressFromString(token).toString(),
    [`automined tx/s, explorer off (first ${compared})`]: rateOff,
    [`automined tx/s, explorer on (first ${compared})`]: rateOn,
    'indexing overhead (on ÷ off, goal ≥ 0.8)': round(rateOn / rateOff),
    ...(rateRest === undefined ? {} : { [`automined tx/s, explorer on (${compared}..${total})`]: rateRest }),
    'latency ms (p50/p99; each page within 1.5× of its 1k figure)': latency,
  };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  console.log(JSON.stringify(await explorerBench(process.argv.includes('--quick')), null, 2));
}
