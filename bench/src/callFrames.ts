// What capturing call frames while mining costs (issue 6): automined ERC-20 transfers, in-process,
// with the chain option `callFrames` on ÷ off (goal ≥ 0.9). The explorer is off on both sides, so
// the figure is the capture and its storage alone.
//
//   node --conditions=@ashlar/source --import tsx bench/src/callFrames.ts [--quick]
import { pathToFileURL } from 'node:url';
import { createTx } from '@ethereumjs/tx';
import { bytesToHex, generateAddress } from '@ethereumjs/util';
import { createNode } from 'ashlar';
import { tokenDeployData } from './benchToken.js';

type Kernel = Awaited<ReturnType<typeof createNode>>;

const GWEI = 1_000_000_000n;

/** The deployment and `n` transfers from dev account 0 to 100 accounts in turn, signed up front. */
function signWorkload(kernel: Kernel, n: number): string[] {
  const accounts = kernel.chain.accounts;
  const common = kernel.chain.common;
  let nonce = 0;
  const sign = (to: string | undefined, data: string, gasLimit: bigint) =>
    bytesToHex(
      createTx(
        {
          type: 2,
          nonce: nonce++,
          to,
          data: data as `0x${string}`,
          gasLimit,
          maxFeePerGas: 100n * GWEI,
          maxPriorityFeePerGas: GWEI,
          chainId: common.chainId(),
        },
        { common },
      )
        .sign(accounts[0].privateKey)
        .serialize(),
    );
  const token = bytesToHex(generateAddress(accounts[0].address.bytes, new Uint8Array(0)));
  const raws = [sign(undefined, tokenDeployData(), 2_000_000n)];
  for (let i = 0; i < n; i++) {
    const to = accounts[1 + (i % 19)].address.toString().slice(2).padStart(64, '0');
    raws.push(sign(token, `0xa9059cbb${to}${(i + 1).toString(16).padStart(64, '0')}`, 100_000n));
  }
  return raws;
}

/** Automined transfers per second on a fresh in-memory node: of wall-clock time, and of this process's CPU time. */
async function run(callFrames: boolean, n: number): Promise<{ wall: number; cpu: number }> {
  const kernel = await createNode({ explorer: false, chain: { callFrames } });
  try {
    const raws = signWorkload(kernel, n);
    await kernel.request({ method: 'eth_sendRawTransaction', params: [raws[0]] });
    const t = performance.now();
    const c = process.cpuUsage();
    for (let i = 1; i < raws.length; i++) await kernel.request({ method: 'eth_sendRawTransaction', params: [raws[i]] });
    const used = process.cpuUsage(c);
    return { wall: (n / (performance.now() - t)) * 1000, cpu: (n / ((used.user + used.system) / 1000)) * 1000 };
  } finally {
    await kernel.close();
  }
}

export async function callFramesBench(quick: boolean): Promise<Record<string, number>> {
  const n = quick ? 500 : 2000;
  const rounds = quick ? 3 : 5;
  await run(true, 100); // warm-up: JIT, module loading
  const on: { wall: number; cpu: number }[] = [];
  const off: { wall: number; cpu: number }[] = [];
  // Off and on run back to back, in alternating order, so that load from elsewhere on the
  // machine hits both sides of a pair alike; figures are medians (of the pairs' ratios for the
  // ratio). CPU time (this process's) is less disturbed by other processes than wall time.
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      off.push(await run(false, n));
      on.push(await run(true, n));
    } else {
      on.push(await run(true, n));
      off.push(await run(false, n));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = (k: 'wall' | 'cpu') => Math.round(median(on.map((x, i) => x[k] / off[i][k])) * 1000) / 1000;
  return {
    'ERC-20 transfers tx/s, call frames off': Math.round(median(off.map((x) => x.wall))),
    'ERC-20 transfers tx/s, call frames on': Math.round(median(on.map((x) => x.wall))),
    'call frames on ÷ off, tx/s (goal ≥ 0.9)': ratio('wall'),
    'call frames on ÷ off, tx per CPU second': ratio('cpu'),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await callFramesBench(process.argv.includes('--quick')));
}
