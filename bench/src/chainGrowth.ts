// RSS of a LevelDB-backed node after 10,000 and 50,000 blocks (one value transfer each), and
// eth_getLogs over 10,000 logs. Both through HTTP against the `ashlar` process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTx } from '@ethereumjs/tx';
import { createDevCommon, deriveAccounts, DEFAULT_MNEMONIC } from './devChain.js';
import { startCli } from './cli.js';
import { rpcClient } from './rpcClient.js';

/** RSS of `ashlar` after 10k and 50k automined transfers (1k and 5k with --quick), on LevelDB or in memory. */
export async function rssGrowth(
  root: string,
  quick: boolean,
  storage: 'LevelDB' | 'memory' = 'LevelDB',
): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'ashlar-rss-'));
  const node = await startCli(root, storage === 'memory' ? ['--memory'] : ['--db', join(dir, 'chain')]);
  const call = rpcClient(node.url);
  const common = createDevCommon();
  const [acct] = deriveAccounts(DEFAULT_MNEMONIC, 1);
  const marks = quick ? [1_000, 5_000] : [10_000, 50_000];
  const out: Record<string, number> = {};
  let nonce = 0;
  const t0 = performance.now();
  for (const mark of marks) {
    while (nonce < mark) {
      const raw = createTx(
        {
          type: 2,
          nonce,
          to: `0x${(0x200000 + (nonce % 5000)).toString(16).padStart(40, '0')}`,
          value: 1n,
          gasLimit: 21_000n,
          maxFeePerGas: 10n ** 11n,
          maxPriorityFeePerGas: 1n,
          chainId: 31337n,
        },
        { common },
      ).sign(acct.privateKey);
      await call('eth_sendRawTransaction', [`0x${Buffer.from(raw.serialize()).toString('hex')}`]);
      nonce++;
    }
    out[`RSS MiB after ${mark} blocks (${storage})`] = node.rssMiB();
  }
  out[`automined transfers/s over the run (${storage})`] = Math.round((nonce / (performance.now() - t0)) * 1000);
  const [a, b] = marks.map((m) => out[`RSS MiB after ${m} blocks (${storage})`]);
  out[`RSS ratio ${marks[1]}/${marks[0]} (${storage})`] = Math.round((b / a) * 100) / 100;
  out[`RSS KiB per block from ${marks[0]} to ${marks[1]} (${storage})`] = Math.round(
    ((b - a) * 1024) / (marks[1] - marks[0]),
  );
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
  return out;
}

export async function getLogsAt10k(root: string): Promise<Record<string, number>> {
  const node = await startCli(root, ['--memory', '--no-automine']);
  const call = rpcClient(node.url);
  const common = createDevCommon();
  const [acct] = deriveAccounts(DEFAULT_MNEMONIC, 1);
  // A contract whose every call emits one log: runtime PUSH1 0xaa PUSH1 32 PUSH1 0 LOG1 STOP,
  // deployed by init code that MSTOREs it and RETURNs its 8 bytes.
  const init = '0x6760aa60206000a10060005260086018f3';
  let nonce = 0;
  const sign = (tx: Record<string, unknown>) =>
    `0x${Buffer.from(
      createTx(
        { type: 2, nonce: nonce++, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, chainId: 31337n, ...tx },
        { common },
      )
        .sign(acct.privateKey)
        .serialize(),
    ).toString('hex')}`;
  const deployHash = await call<string>('eth_sendRawTransaction', [sign({ gasLimit: 100_000n, data: init })]);
  await call('evm_mine');
  const receipt = await call<{ contractAddress: string }>('eth_getTransactionReceipt', [deployHash]);
  for (let block = 0; block < 10; block++) {
    for (let i = 0; i < 1000; i++)
      await call('eth_sendRawTransaction', [sign({ gasLimit: 30_000n, to: receipt.contractAddress })]);
    await call('evm_mine');
  }
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const logs = await call<unknown[]>('eth_getLogs', [
      { fromBlock: '0x0', toBlock: 'latest', address: receipt.contractAddress },
    ]);
    times.push(performance.now() - t);
    count = logs.length;
  }
  await node.stop();
  times.sort((a, b) => a - b);
  return {
    'eth_getLogs logs returned': count,
    'eth_getLogs over 10,000 logs, median ms': Math.round(times[2] * 10) / 10,
  };
}
