// In-process figures: the kernel without HTTP, so transport cost and chain cost can be told apart.
import { createNode } from 'ashlar';
import { signedTransfers } from './signedTransfers.js';

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

export async function inProcess(quick: boolean): Promise<Record<string, number>> {
  const n = quick ? 200 : 1000;
  const kernel = await createNode();
  const raws = signedTransfers(kernel, n);
  let t = performance.now();
  for (const raw of raws) await kernel.request({ method: 'eth_sendRawTransaction', params: [raw] });
  const transfers = rate(n, performance.now() - t);

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
  await kernel.close();
  return {
    'transfers tx/s': transfers,
    'eth_blockNumber req/s': blockNumber,
    'eth_call (empty) calls/s': call,
    'empty blocks/s': emptyBlocks,
  };
}
