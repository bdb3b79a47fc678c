// Test-chain figures, in-process through the EIP-1193 provider (what a Hardhat-style suite talks
// to): a suite that restores an ERC-20 fixture by snapshot before each test, the cost of one
// evm_snapshot + evm_revert pair on a short and on a long chain, and hardhat_mine of a million
// blocks. Hardhat's own figures are not measured here: it is not installed in this workspace.
import { readFileSync } from 'node:fs';
import { createProvider } from '@ashlar/core';
import { createNode } from 'ashlar';

type Provider = ReturnType<typeof createProvider>;

const HOLDERS = 100;
const TXS_PER_TEST = 5;

const artifacts = JSON.parse(
  readFileSync(new URL('../../test/contracts/artifacts.json', import.meta.url), 'utf8'),
) as Record<string, { bytecode: string }>;

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const text = (s: string) => word(s.length) + Buffer.from(s).toString('hex').padEnd(64, '0');
const address = (i: number) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}`;
/** transfer(address,uint256) */
const transfer = (to: string, amount: bigint) => `0xa9059cbb${word(BigInt(to))}${word(amount)}`;

async function deployFixture(provider: Provider, from: string): Promise<string> {
  // constructor(string name, string symbol, uint256 supply): two offsets, the supply, two strings
  const args = word(0x60) + word(0xa0) + word(10n ** 24n) + text('Token') + text('TOK');
  const hash = await provider.request<string>({
    method: 'eth_sendTransaction',
    params: [{ from, data: artifacts.Token.bytecode + args, gas: '0x2dc6c0' }],
  });
  const receipt = await provider.request<{ contractAddress: string }>({
    method: 'eth_getTransactionReceipt',
    params: [hash],
  });
  for (let i = 0; i < HOLDERS; i++) {
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from, to: receipt.contractAddress, data: transfer(address(i), 10n ** 19n), gas: '0x186a0' }],
    });
  }
  return receipt.contractAddress;
}

/** `tests` tests, each: revert to the fixture, take a new snapshot, send 5 token transfers. */
async function suite(tests: number): Promise<{ fixtureMs: number; suiteMs: number }> {
  const kernel = await createNode();
  const provider = createProvider(kernel);
  const [from] = await provider.request<string[]>({ method: 'eth_accounts' });
  let t = performance.now();
  const token = await deployFixture(provider, from);
  let snapshot = await provider.request({ method: 'evm_snapshot' });
  const fixtureMs = performance.now() - t;
  t = performance.now();
  for (let test = 0; test < tests; test++) {
    await provider.request({ method: 'evm_revert', params: [snapshot] });
    snapshot = await provider.request({ method: 'evm_snapshot' });
    for (let i = 0; i < TXS_PER_TEST; i++) {
      await provider.request({
        method: 'eth_sendTransaction',
        params: [{ from, to: token, data: transfer(address(i), 1n), gas: '0x186a0' }],
      });
    }
  }
  const suiteMs = performance.now() - t;
  await kernel.close();
  return { fixtureMs, suiteMs };
}

/** Mean ms of one evm_snapshot + evm_revert pair, one mined block between them (not counted). */
async function snapshotPair(provider: Provider, rounds: number): Promise<number> {
  let total = 0;
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    const id = await provider.request({ method: 'evm_snapshot' });
    total += performance.now() - t;
    await provider.request({ method: 'evm_mine' });
    t = performance.now();
    await provider.request({ method: 'evm_revert', params: [id] });
    total += performance.now() - t;
  }
  return total / rounds;
}

export async function devSuiteBench(quick: boolean): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const tests = quick ? 50 : 200;
  const { fixtureMs, suiteMs } = await suite(tests);
  out['fixture (deploy + 100 holders) ms'] = Math.round(fixtureMs);
  out[`suite of ${tests} tests (revert + snapshot + 5 txs) ms`] = Math.round(suiteMs);
  out['suite ms per test'] = Math.round((suiteMs / tests) * 100) / 100;

  const kernel = await createNode();
  const provider = createProvider(kernel);
  const rounds = quick ? 50 : 200;
  await provider.request({ method: 'hardhat_mine', params: ['0x3e8'] });
  out['snapshot+revert pair at 1,000 blocks ms'] = Math.round((await snapshotPair(provider, rounds)) * 1000) / 1000;
  await provider.request({ method: 'hardhat_mine', params: [`0x${(99_000).toString(16)}`] });
  out['snapshot+revert pair at 100,000 blocks ms'] = Math.round((await snapshotPair(provider, rounds)) * 1000) / 1000;
  await kernel.close();

  const fresh = await createNode();
  const p = createProvider(fresh);
  let t = performance.now();
  await p.request({ method: 'hardhat_mine', params: ['0xf4240'] });
  out['hardhat_mine 1,000,000 blocks ms'] = Math.round((performance.now() - t) * 100) / 100;
  t = performance.now();
  await p.request({ method: 'evm_mine' });
  out['first block after them ms'] = Math.round((performance.now() - t) * 100) / 100;
  await fresh.close();
  return out;
}

// `node --conditions=@ashlar/source --import tsx bench/src/devSuite.ts [--quick]` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await devSuiteBench(process.argv.includes('--quick')), null, 2));
}
