// In-process read path: CPU per eth_call of an ERC-20 balanceOf through kernel.request (profile with PROF=file).
// The same call each time is answered by the result cache; NEW=1 asks for a new holder each call (uncached).
import { createNode } from 'ashlar';
import { tokenDeployData } from '../benchToken.js';
import { startCpuProfile } from './cpuProfile.js';

const N = Number(process.env.N ?? 3000);
const kernel = await createNode(JSON.parse(process.env.OPTS ?? '{}'));
const from = kernel.chain.accounts[0].address.toString();
const hash = (await kernel.request({
  method: 'eth_sendTransaction',
  params: [{ from, data: tokenDeployData(), gas: '0x2dc6c0' }],
})) as string;
const receipt = (await kernel.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
  contractAddress: string;
};
const fixed = `0x70a08231${from.slice(2).padStart(64, '0')}`;
let holder = 0;
const data = () => (process.env.NEW ? `0x70a08231${(++holder).toString(16).padStart(64, '0')}` : fixed);
const call = () =>
  kernel.request({ method: 'eth_call', params: [{ to: receipt.contractAddress, data: data() }, 'latest'] });
for (let i = 0; i < 500; i++) await call();
const stopProfile = await startCpuProfile(process.env.PROF);
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) await call();
const wall = performance.now() - t0;
const c = process.cpuUsage(c0);
await stopProfile();
console.log(
  `eth_call balanceOf: ${((N / wall) * 1000).toFixed(0)}/s, cpu ${((c.user + c.system) / 1000 / N).toFixed(3)} ms/call`,
);
await kernel.close();
