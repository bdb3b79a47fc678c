// Test-chain figures of issue #5, in-process through the EIP-1193 provider (what a Hardhat-style
// suite talks to), for Ashlar and, in the same run, for Hardhat's in-process network: the suite
// that restores an ERC-20 fixture by snapshot before each test, the snapshot+revert pair on a
// short and a long chain, hardhat_mine of a million blocks (steps in devSuiteShape.ts, shared:
// suites interleaved, best of 2; pairs as medians). Hardhat is skipped with --no-peers or when
// it is not installed.
import { createProvider } from '@ashlar/core';
import { createNode } from 'ashlar';
import {
  type DevChain,
  type DevResult,
  type Side,
  devFigures,
  stateDifferences,
  unexpectedState,
} from './devSuiteShape.js';
import { openHardhat } from './hardhatNetwork.js';

export async function openAshlar(): Promise<DevChain> {
  const kernel = await createNode();
  const provider = createProvider(kernel);
  return { request: (args) => provider.request(args), close: () => kernel.close() };
}

const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;

function printSideBySide(ashlar: Record<string, number>, hardhat: Record<string, number>): void {
  const rows = Object.keys(ashlar).map((key) => ({
    figure: key,
    Ashlar: ashlar[key],
    Hardhat: hardhat[key],
    'Ashlar ÷ Hardhat': ratio(ashlar[key], hardhat[key]),
  }));
  console.table(rows);
}

/** Records whether the final state is the expected one, and warns (the figures stand) if not. */
function warnIfWrong(out: Record<string, unknown>, differences: string[]): void {
  out['final state agrees'] = differences.length === 0;
  if (differences.length === 0) return;
  out['final state differences'] = differences;
  console.warn(`dev suite: WARNING, the suite's final state is not the expected one:\n  ${differences.join('\n  ')}`);
}

export async function devSuiteBench(quick: boolean, peers = true): Promise<Record<string, unknown>> {
  const network = peers ? await openHardhat() : { skipped: '--no-peers' };
  if ('skipped' in network && peers) console.warn(`dev suite: Hardhat comparison skipped: ${network.skipped}`);
  const sides: Side[] = [{ name: 'Ashlar', open: openAshlar }];
  if (!('skipped' in network)) sides.push({ name: 'Hardhat', open: () => network.open() });
  let results: DevResult[];
  try {
    results = await devFigures(sides, quick);
  } finally {
    if (!('skipped' in network)) network.close();
  }
  const [ashlar, hardhat] = results;
  const out: Record<string, unknown> = { ...ashlar.figures };
  const pairs = [
    ashlar.figures['snapshot+revert pair at 100,000 blocks ms'],
    ashlar.figures['snapshot+revert pair at 1,000 blocks ms'],
  ];
  out['snapshot+revert pair 100,000 ÷ 1,000 blocks'] = ratio(pairs[0], pairs[1]);
  if ('skipped' in network || !hardhat) {
    warnIfWrong(out, unexpectedState('Ashlar', ashlar.state));
    out.hardhat = network;
    return out;
  }
  out.hardhat = { version: network.version, ...hardhat.figures };
  const suiteKey = Object.keys(ashlar.figures).find((k) => k.startsWith('suite of')) as string;
  out['suite time Ashlar ÷ Hardhat'] = ratio(ashlar.figures[suiteKey], hardhat.figures[suiteKey]);
  out['suite CPU Ashlar ÷ Hardhat'] = ratio(ashlar.figures['suite CPU ms'], hardhat.figures['suite CPU ms']);
  warnIfWrong(out, stateDifferences(ashlar.state, hardhat.state, ['Ashlar', 'Hardhat']));
  printSideBySide(ashlar.figures, hardhat.figures);
  return out;
}

// `node --conditions=@ashlar/source --import tsx bench/src/devSuite.ts [--quick] [--no-peers]`
// runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await devSuiteBench(process.argv.includes('--quick'), !process.argv.includes('--no-peers'));
  console.log(JSON.stringify(result, null, 2));
}
