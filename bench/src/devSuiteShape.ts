// The dev-suite figures of issue #5 as one definition over an EIP-1193 `request`, so Ashlar and
// Hardhat demonstrably run the very same steps: the fixture (an ERC-20 and 100 holders), the
// suite (each test: evm_revert + evm_snapshot + 5 transfers by eth_sendTransaction from a dev
// account, automine, so each answer arrives once its block is mined), the snapshot+revert pair on
// a short and a long chain, and hardhat_mine of a million blocks.
import { readFileSync } from 'node:fs';

export type Request = (args: { method: string; params?: readonly unknown[] }) => Promise<unknown>;

/** A fresh chain of the side under test (chain id 31337, the `test … junk` dev accounts). */
export interface DevChain {
  request: Request;
  close(): Promise<void>;
}

export const HOLDERS = 100;
export const TXS_PER_TEST = 5;
/** Tokens each holder gets in the fixture, and what the deployer mints. */
export const HOLDER_AMOUNT = 10n ** 19n;
export const SUPPLY = 10n ** 24n;

const artifacts = JSON.parse(
  readFileSync(new URL('../../test/contracts/artifacts.json', import.meta.url), 'utf8'),
) as Record<string, { bytecode: string }>;

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const text = (s: string) => word(s.length) + Buffer.from(s).toString('hex').padEnd(64, '0');
export const holder = (i: number) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}`;
/** transfer(address,uint256) */
const transfer = (to: string, amount: bigint) => `0xa9059cbb${word(BigInt(to))}${word(amount)}`;
/** balanceOf(address) */
const balanceOf = (who: string) => `0x70a08231${word(BigInt(who))}`;

async function send(request: Request, tx: Record<string, string>): Promise<string> {
  return (await request({ method: 'eth_sendTransaction', params: [tx] })) as string;
}

/** Deploys Token('Token', 'TOK', 10^24) and pays 100 holders 10 tokens each; the token's address. */
export async function deployFixture(request: Request, from: string): Promise<string> {
  // constructor(string name, string symbol, uint256 supply): two offsets, the supply, two strings
  const args = word(0x60) + word(0xa0) + word(SUPPLY) + text('Token') + text('TOK');
  const hash = await send(request, { from, data: artifacts.Token.bytecode + args, gas: '0x2dc6c0' });
  const receipt = (await request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
    contractAddress: string;
  };
  for (let i = 0; i < HOLDERS; i++) {
    await send(request, {
      from,
      to: receipt.contractAddress,
      data: transfer(holder(i), HOLDER_AMOUNT),
      gas: '0x186a0',
    });
  }
  return receipt.contractAddress;
}

/** What both sides must agree on after the suite (and what hand computation predicts). */
export interface FinalState {
  blockNumber: bigint;
  /** Holders 0..99, then the deployer. */
  balances: bigint[];
  /** status and gasUsed of the last test's transactions. */
  receipts: { status: string; gasUsed: bigint }[];
}

export interface SuiteFigures {
  fixtureMs: number;
  suiteMs: number;
  /** process.cpuUsage (user + system, every thread of the process) over the suite. */
  suiteCpuMs: number;
  state: FinalState;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/**
 * `tests` tests, each: revert to the fixture, take a new snapshot, send 5 token transfers.
 * `beforeSuite` runs between the fixture and the suite (a profiler starts there).
 */
export async function runSuite(
  request: Request,
  tests: number,
  beforeSuite?: () => Promise<void>,
): Promise<SuiteFigures> {
  const [from] = (await request({ method: 'eth_accounts' })) as string[];
  let t = performance.now();
  const token = await deployFixture(request, from);
  let snapshot = await request({ method: 'evm_snapshot' });
  const fixtureMs = performance.now() - t;
  await beforeSuite?.();
  let hashes: string[] = [];
  t = performance.now();
  const cpu = process.cpuUsage();
  for (let test = 0; test < tests; test++) {
    if ((await request({ method: 'evm_revert', params: [snapshot] })) !== true) throw new Error('evm_revert refused');
    snapshot = await request({ method: 'evm_snapshot' });
    hashes = [];
    for (let i = 0; i < TXS_PER_TEST; i++) {
      hashes.push(await send(request, { from, to: token, data: transfer(holder(i), 1n), gas: '0x186a0' }));
    }
  }
  const suiteCpuMs = cpuMs(cpu);
  const suiteMs = performance.now() - t;
  return { fixtureMs, suiteMs, suiteCpuMs, state: await finalState(request, token, from, hashes) };
}

async function finalState(request: Request, token: string, from: string, hashes: string[]): Promise<FinalState> {
  const balance = async (who: string) =>
    BigInt((await request({ method: 'eth_call', params: [{ to: token, data: balanceOf(who) }, 'latest'] })) as string);
  const balances: bigint[] = [];
  for (let i = 0; i < HOLDERS; i++) balances.push(await balance(holder(i)));
  balances.push(await balance(from));
  const receipts: FinalState['receipts'] = [];
  for (const hash of hashes) {
    const r = (await request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      status: string;
      gasUsed: string;
    } | null;
    receipts.push({ status: r?.status ?? 'missing', gasUsed: BigInt(r?.gasUsed ?? 0) });
  }
  const blockNumber = BigInt((await request({ method: 'eth_blockNumber' })) as string);
  return { blockNumber, balances, receipts };
}

/**
 * The state the suite must end in, by hand: the fixture is block 1 (deploy) + 100 transfers, each
 * test adds 5 blocks on it, the last test's 5 transfers of 1 token to holders 0..4 stay.
 */
export function expectedState(): Pick<FinalState, 'blockNumber' | 'balances'> {
  const balances = Array.from({ length: HOLDERS }, (_, i) => HOLDER_AMOUNT + (i < TXS_PER_TEST ? 1n : 0n));
  balances.push(SUPPLY - HOLDER_AMOUNT * BigInt(HOLDERS) - BigInt(TXS_PER_TEST));
  return { blockNumber: BigInt(1 + HOLDERS + TXS_PER_TEST), balances };
}

/**
 * One evm_snapshot + evm_revert pair, one mined block between them (not counted), `rounds` times:
 * the median ms (one pair's cost; on a shared machine a few pairs stall for tens of ms) and the mean.
 */
export async function snapshotPair(request: Request, rounds: number): Promise<{ median: number; mean: number }> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    const id = await request({ method: 'evm_snapshot' });
    let pair = performance.now() - t;
    await request({ method: 'evm_mine' });
    t = performance.now();
    if ((await request({ method: 'evm_revert', params: [id] })) !== true) throw new Error('evm_revert refused');
    pair += performance.now() - t;
    times.push(pair);
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return { median, mean: times.reduce((a, b) => a + b, 0) / times.length };
}

const round = (ms: number, places: number) => Math.round(ms * 10 ** places) / 10 ** places;

/** One side under test: `open` gives a fresh chain for each part. */
export interface Side {
  name: string;
  open(): Promise<DevChain>;
}

export interface DevResult {
  figures: Record<string, number>;
  state: FinalState;
}

/**
 * Every dev figure of each side. The suites run interleaved (A, B, A, B …), `runs` times each, and
 * each figure keeps the best run: the machine may be shared, and a load swing then hits both
 * sides instead of whichever happened to run during it.
 */
export async function devFigures(sides: readonly Side[], quick: boolean, runs = quick ? 1 : 2): Promise<DevResult[]> {
  const tests = quick ? 50 : 200;
  const best = sides.map(() => ({ fixtureMs: Infinity, suiteMs: Infinity, suiteCpuMs: Infinity }));
  const states: FinalState[] = [];
  for (let run = 0; run < runs; run++) {
    for (const [i, side] of sides.entries()) {
      const chain = await side.open();
      const suite = await runSuite(chain.request, tests);
      await chain.close();
      best[i].fixtureMs = Math.min(best[i].fixtureMs, suite.fixtureMs);
      best[i].suiteMs = Math.min(best[i].suiteMs, suite.suiteMs);
      best[i].suiteCpuMs = Math.min(best[i].suiteCpuMs, suite.suiteCpuMs);
      states[i] = suite.state;
    }
  }
  const results: DevResult[] = [];
  for (const [i, side] of sides.entries()) {
    const out: Record<string, number> = {};
    out['fixture (deploy + 100 holders) ms'] = Math.round(best[i].fixtureMs);
    out[`suite of ${tests} tests (revert + snapshot + 5 txs) ms`] = Math.round(best[i].suiteMs);
    out['suite CPU ms'] = Math.round(best[i].suiteCpuMs);
    out['suite ms per test'] = round(best[i].suiteMs / tests, 2);
    Object.assign(out, await chainFigures(side, quick));
    results.push({ figures: out, state: states[i] });
  }
  return results;
}

/** The snapshot+revert pair at 1,000 and 100,000 blocks, hardhat_mine of 1,000,000 blocks. */
async function chainFigures(side: Side, quick: boolean): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  let chain = await side.open();
  const rounds = quick ? 50 : 200;
  for (const [blocks, mine] of [
    ['1,000', 1_000],
    ['100,000', 99_000],
  ] as const) {
    await chain.request({ method: 'hardhat_mine', params: [`0x${mine.toString(16)}`] });
    const { median, mean } = await snapshotPair(chain.request, rounds);
    out[`snapshot+revert pair at ${blocks} blocks ms`] = round(median, 3);
    out[`snapshot+revert pair at ${blocks} blocks ms (mean)`] = round(mean, 3);
  }
  await chain.close();

  chain = await side.open();
  let t = performance.now();
  await chain.request({ method: 'hardhat_mine', params: ['0xf4240'] });
  out['hardhat_mine 1,000,000 blocks ms'] = round(performance.now() - t, 2);
  t = performance.now();
  await chain.request({ method: 'evm_mine' });
  out['first block after them ms'] = round(performance.now() - t, 2);
  await chain.close();
  return out;
}

/** Where one side's final state departs from the hand-computed one, one line each. */
export function unexpectedState(name: string, s: FinalState): string[] {
  const out: string[] = [];
  const expected = expectedState();
  if (s.blockNumber !== expected.blockNumber)
    out.push(`${name}: head ${s.blockNumber}, expected ${expected.blockNumber}`);
  s.balances.forEach((v, i) => {
    if (v !== expected.balances[i]) out.push(`${name}: balance ${i} is ${v}, expected ${expected.balances[i]}`);
  });
  for (const r of s.receipts) if (r.status !== '0x1') out.push(`${name}: last test's receipt status ${r.status}`);
  return out;
}

/** Differences between two sides' final states (each also against the hand-computed one). */
export function stateDifferences(a: FinalState, b: FinalState, names: [string, string]): string[] {
  const out = [...unexpectedState(names[0], a), ...unexpectedState(names[1], b)];
  a.balances.forEach((v, i) => {
    if (v !== b.balances[i]) out.push(`balance ${i}: ${names[0]} ${v}, ${names[1]} ${b.balances[i]}`);
  });
  a.receipts.forEach((r, i) => {
    const other = b.receipts[i]?.gasUsed;
    if (r.gasUsed !== other) out.push(`gasUsed of last test's tx ${i}: ${names[0]} ${r.gasUsed}, ${names[1]} ${other}`);
  });
  return out;
}
