// In-process eth_getLogs over a chain of 1,000 ERC-20 transfers (one Transfer log a block): ms per query (PROF=file for a profile).
import { createNode } from 'ashlar';
import { tokenDeployData } from '../benchToken.js';
import { startCpuProfile } from './cpuProfile.js';

const kernel = await createNode(JSON.parse(process.env.OPTS ?? '{}'));
const from = kernel.chain.accounts[0].address.toString();
const send = (tx: Record<string, string>) =>
  kernel.request({ method: 'eth_sendTransaction', params: [{ from, ...tx }] });
const hash = (await send({ data: tokenDeployData(), gas: '0x2dc6c0' })) as string;
const { contractAddress: token } = (await kernel.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
  contractAddress: string;
};
for (let i = 0; i < 1000; i++) {
  const to = (0x300000 + i).toString(16).padStart(64, '0');
  await send({ to: token, data: `0xa9059cbb${to}${(1).toString(16).padStart(64, '0')}`, gas: '0x186a0' });
}
const topic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const q = () =>
  kernel.request({
    method: 'eth_getLogs',
    params: [{ fromBlock: '0x0', toBlock: 'latest', address: token, topics: [topic] }],
  });
for (let i = 0; i < 10; i++) await q();
const stopProfile = await startCpuProfile(process.env.PROF);
const t0 = performance.now();
const N = 30;
let n = 0;
for (let i = 0; i < N; i++) n = ((await q()) as unknown[]).length;
const ms = (performance.now() - t0) / N;
await stopProfile();
console.log(`eth_getLogs: ${n} logs in ${ms.toFixed(1)} ms`);
await kernel.close();
