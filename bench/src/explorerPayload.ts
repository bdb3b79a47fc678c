// What Blockscout's dual field names cost (issue 24): bytes of the explorer's list and detail
// pages and their p50 latency, in-process, on a chain of 1,000 transactions (half ERC-20
// transfers) among 100 accounts. Run before and after a serializer change and compare.
//
//   node --conditions=@ashlar/source --import tsx bench/src/explorerPayload.ts
import { pathToFileURL } from 'node:url';
import { createNode } from 'ashlar';
import { tokenDeployData } from './benchToken.js';

type Kernel = Awaited<ReturnType<typeof createNode>>;

const TRANSACTIONS = 1000;
const ROUNDS = 300;

async function get(kernel: Kernel, path: string): Promise<string> {
  const u = new URL(path, 'http://bench');
  const found = kernel.routes.lookup('GET', u.pathname);
  if (!found) throw new Error(`no route for ${path}`);
  const res = await found.handler({ method: 'GET', path: u.pathname, params: found.params, query: u.searchParams });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  // What a transport does with it: the serialization is part of the latency and the size.
  return JSON.stringify(res.body);
}

const transferData = (to: string, amount: number) =>
  `0xa9059cbb${to.slice(2).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;

export async function explorerPayloadBench(): Promise<Record<string, { bytes: number; p50: number }>> {
  const kernel = await createNode({ chain: { accounts: 100 }, mining: { automine: true }, explorer: true });
  const accounts = kernel.chain.accounts.map((a) => a.address.toString());
  const whale = accounts[0];
  const deploy = await kernel.request<string>({
    method: 'eth_sendTransaction',
    params: [{ from: whale, data: tokenDeployData(), gas: '0x1e8480' }],
  });
  const receipt = await kernel.request<{ contractAddress: string }>({
    method: 'eth_getTransactionReceipt',
    params: [deploy],
  });
  const token = receipt.contractAddress;
  for (let i = 1; i < TRANSACTIONS; i++) {
    const other = accounts[1 + (i % (accounts.length - 1))];
    const tx =
      i % 2 === 1
        ? { from: whale, to: token, data: transferData(other, i), gas: '0x186a0' }
        : { from: other, to: whale, value: `0x${i.toString(16)}`, gas: '0x5208' };
    await kernel.request({ method: 'eth_sendTransaction', params: [tx] });
  }
  const pages: Record<string, string> = {
    blocks: '/api/v2/blocks',
    transactions: '/api/v2/transactions',
    'addresses/{whale}': `/api/v2/addresses/${whale}`,
    'addresses/{token}': `/api/v2/addresses/${token}`,
    tokens: '/api/v2/tokens',
    'addresses/{whale}/token-transfers': `/api/v2/addresses/${whale}/token-transfers`,
  };
  const names = Object.keys(pages);
  for (const n of names) for (let i = 0; i < 20; i++) await get(kernel, pages[n]);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) {
      const t = performance.now();
      await get(kernel, pages[n]);
      times[n].push(performance.now() - t);
    }
  }
  const out: Record<string, { bytes: number; p50: number }> = {};
  for (const n of names) {
    const sorted = times[n].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length / 2)];
    out[n] = { bytes: Buffer.byteLength(await get(kernel, pages[n])), p50: Math.round(p50 * 1000) / 1000 };
  }
  await kernel.close();
  return out;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) console.log(JSON.stringify(await explorerPayloadBench(), null, 2));
