// In-process figures: the kernel without HTTP, so transport cost and chain cost can be told apart.
import { createNode } from 'ashlar';
import { tokenDeployData } from './benchToken.js';
import { signedTransfers } from './signedTransfers.js';

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const cpuMsPer = (since: NodeJS.CpuUsage, n: number) => {
  const { user, system } = process.cpuUsage(since);
  return Math.round(((user + system) / 1000 / n) * 1000) / 1000;
};

export async function inProcess(quick: boolean): Promise<Record<string, number>> {
  const n = quick ? 200 : 1000;
  const kernel = await createNode();
  const raws = signedTransfers(kernel, n);
  let t = performance.now();
  let cpu = process.cpuUsage();
  for (const raw of raws) await kernel.request({ method: 'eth_sendRawTransaction', params: [raw] });
  const transfers = rate(n, performance.now() - t);
  const transferCpu = cpuMsPer(cpu, n);

  t = performance.now();
  for (let i = 0; i < 2000; i++) await kernel.request({ method: 'eth_blockNumber' });
  const blockNumber = rate(2000, performance.now() - t);

  t = performance.now();
  const to = kernel.chain.accounts[1].address.toString();
  for (let i = 0; i < 1000; i++) await kernel.request({ method: 'eth_call', params: [{ to, data: '0x' }, 'latest'] });
  const call = rate(1000, performance.now() - t);

  t = performance.now();
  for (let i = 0; i < 200; i++) await kernel.request({ method: 'evm_mine' });
  const emptyBlocks = rate(200, performance.now() - t);

  // ERC-20 balanceOf as the peers' harness asks it: 1,000 holders, each asked once (every call a
  // new one, so the eth_call result cache cannot answer), then the same 1,000 again (it can).
  const from = kernel.chain.accounts[0].address.toString();
  const hash = await kernel.request({
    method: 'eth_sendTransaction',
    params: [{ from, data: tokenDeployData(), gas: '0x2dc6c0' }],
  });
  const { contractAddress: token } = (await kernel.request({
    method: 'eth_getTransactionReceipt',
    params: [hash],
  })) as { contractAddress: string };
  const datas = Array.from({ length: 1000 }, (_, i) => `0x70a08231${(0x200000 + i).toString(16).padStart(64, '0')}`);
  const balanceOf = (data: string) => kernel.request({ method: 'eth_call', params: [{ to: token, data }, 'latest'] });
  for (let i = 0; i < 200; i++) await balanceOf(`0x70a08231${(0x300000 + i).toString(16).padStart(64, '0')}`);
  t = performance.now();
  cpu = process.cpuUsage();
  for (const data of datas) await balanceOf(data);
  const distinct = rate(datas.length, performance.now() - t);
  const distinctCpu = cpuMsPer(cpu, datas.length);
  t = performance.now();
  cpu = process.cpuUsage();
  for (const data of datas) await balanceOf(data);
  const repeated = rate(datas.length, performance.now() - t);
  const repeatedCpu = cpuMsPer(cpu, datas.length);
  await kernel.close();
  return {
    'transfers tx/s': transfers,
    'transfer CPU ms': transferCpu,
    'eth_blockNumber req/s': blockNumber,
    'eth_call (empty) calls/s': call,
    'empty blocks/s': emptyBlocks,
    'eth_call balanceOf, each call new, calls/s': distinct,
    'eth_call balanceOf, each call new, CPU ms': distinctCpu,
    'eth_call balanceOf, repeated (result cache), calls/s': repeated,
    'eth_call balanceOf, repeated (result cache), CPU ms': repeatedCpu,
  };
}
