// CPU per request of the log and receipt reads (#15 item 3), in-process: the request and the
// JSON text a transport would send (JSON.stringify of the answer), so encoding counts too.
// CPU time (process.cpuUsage) rather than wall time: the bench machine is shared.
//  - eth_getLogs over the harness's chain: 1,000 ERC-20 Transfer logs, one a block (address +
//    topic filter, 0x0..latest), first query (cold) and the median of the next ones (warm);
//  - eth_getLogs over 10,000 logs, one a block (address filter), first and warm;
//  - eth_getTransactionReceipt and eth_getTransactionByHash, each of 1,000 mined transactions.
import { createNode } from 'ashlar';
import { createTx } from '@ethereumjs/tx';
import type { Kernel } from '@ashlar/core';
import { tokenDeployData } from './benchToken.js';

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** CPU ms (user + system) that `fn` takes, with the JSON text of its answer. */
async function cpuMs(fn: () => Promise<unknown>): Promise<{ ms: number; value: unknown }> {
  const c = process.cpuUsage();
  const value = await fn();
  JSON.stringify(value);
  const d = process.cpuUsage(c);
  return { ms: (d.user + d.system) / 1000, value };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Raw signed transactions from dev account 0, nonces from `nonce` on. */
function signer(kernel: Kernel) {
  const acct = kernel.services.chain.accounts[0];
  let nonce = 0;
  return (tx: Record<string, unknown>): string =>
    `0x${Buffer.from(
      createTx(
        { type: 2, nonce: nonce++, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, chainId: 31337n, ...tx },
        { common: kernel.services.chain.common },
      )
        .sign(acct.privateKey)
        .serialize(),
    ).toString('hex')}`;
}

async function send(kernel: Kernel, raw: string): Promise<string> {
  return (await kernel.request({ method: 'eth_sendRawTransaction', params: [raw] })) as string;
}

async function tokenChain(quick: boolean): Promise<Record<string, number>> {
  const kernel = await createNode({ explorer: false });
  const sign = signer(kernel);
  const deploy = await send(kernel, sign({ gasLimit: 3_000_000n, data: tokenDeployData() }));
  const { contractAddress: token } = (await kernel.request({
    method: 'eth_getTransactionReceipt',
    params: [deploy],
  })) as { contractAddress: string };
  const hashes: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const to = (0x300000 + i).toString(16).padStart(64, '0');
    hashes.push(
      await send(kernel, sign({ gasLimit: 100_000n, to: token, data: `0xa9059cbb${to}${'1'.padStart(64, '0')}` })),
    );
  }
  const q = () =>
    kernel.request({
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', toBlock: 'latest', address: token, topics: [TRANSFER] }],
    });
  const cold = await cpuMs(q);
  const warm: number[] = [];
  for (let i = 0; i < (quick ? 10 : 30); i++) warm.push((await cpuMs(q)).ms);
  const receipt = async () => {
    const c = process.cpuUsage();
    for (const h of hashes) JSON.stringify(await kernel.request({ method: 'eth_getTransactionReceipt', params: [h] }));
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1000 / hashes.length;
  };
  const byHash = async () => {
    const c = process.cpuUsage();
    for (const h of hashes) JSON.stringify(await kernel.request({ method: 'eth_getTransactionByHash', params: [h] }));
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1000 / hashes.length;
  };
  await receipt();
  await byHash();
  const receipts: number[] = [];
  const txs: number[] = [];
  for (let i = 0; i < (quick ? 3 : 7); i++) {
    receipts.push(await receipt());
    txs.push(await byHash());
  }
  await kernel.close();
  return {
    'eth_getLogs 1,000 Transfer logs over 1,002 blocks, first query, CPU ms': round(cold.ms, 1),
    'eth_getLogs 1,000 Transfer logs over 1,002 blocks, warm, CPU ms': round(median(warm), 2),
    'eth_getTransactionReceipt, CPU ms each': round(median(receipts)),
    'eth_getTransactionByHash, CPU ms each': round(median(txs)),
  };
}

async function tenThousandLogs(quick: boolean): Promise<Record<string, number>> {
  const n = quick ? 2_000 : 10_000;
  const kernel = await createNode({ explorer: false, rpc: { logsMaxBlockRange: 100_000, logsMaxResults: 100_000 } });
  const sign = signer(kernel);
  // A contract whose every call emits one log: runtime PUSH1 0xaa PUSH1 32 PUSH1 0 LOG1 STOP,
  // deployed by init code that MSTOREs it and RETURNs its 8 bytes.
  const deploy = await send(kernel, sign({ gasLimit: 100_000n, data: '0x6760aa60206000a10060005260086018f3' }));
  const { contractAddress: emitter } = (await kernel.request({
    method: 'eth_getTransactionReceipt',
    params: [deploy],
  })) as { contractAddress: string };
  for (let i = 0; i < n; i++) await send(kernel, sign({ gasLimit: 30_000n, to: emitter }));
  const q = () =>
    kernel.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', address: emitter }] });
  const cold = await cpuMs(q);
  const warm: number[] = [];
  for (let i = 0; i < (quick ? 3 : 9); i++) warm.push((await cpuMs(q)).ms);
  const count = ((await q()) as unknown[]).length;
  await kernel.close();
  return {
    [`eth_getLogs ${count} logs, one a block, first query, CPU ms`]: round(cold.ms, 1),
    [`eth_getLogs ${count} logs, one a block, warm, CPU ms`]: round(median(warm), 1),
  };
}

/** `npm run bench -- --only=logs`: CPU per eth_getLogs, receipt and transaction read. */
export async function logsReceiptsBench(quick: boolean): Promise<Record<string, number>> {
  return { ...(await tokenChain(quick)), ...(await tenThousandLogs(quick)) };
}

// Run alone: node --conditions=@ashlar/source --import tsx bench/src/logsReceipts.ts [--quick]
if (process.argv[1]?.endsWith('logsReceipts.ts'))
  console.log(await logsReceiptsBench(process.argv.includes('--quick')));
