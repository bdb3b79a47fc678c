// Where the time of a CPU profile goes, by stage of Ashlar's pipeline, in µs per operation:
//   node --import tsx bench/src/profile/stages.ts FILE.cpuprofile [OPS] [--last-ms=N] [--top=N]
// FILE comes from `node --cpu-prof` (the CLI under the peers' harness), `PROF=` of the scripts
// beside this one, or bench/src/profileDevSuite.ts. OPS divides the totals (1,000 transactions, say);
// --last-ms keeps only the samples of the profile's last N ms (the workload, without startup);
// --top lists the heaviest functions of each stage. Each sample is charged to the function it
// landed in (self time), then to the first stage whose rule matches that function's file: the
// same rules gave the before/after tables of issues #14 and #15. Idle time is left out.
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

type Rule = readonly [stage: string, matches: (fn: string, url: string) => boolean];

/** First match wins, so the narrow stages (crypto, trie) come before the broad ones. */
export const STAGE_RULES: readonly Rule[] = [
  ['GC', (f) => f === '(garbage collector)'],
  ['idle', (f) => f === '(idle)'],
  ['keccak', (f, u) => /hash-wasm|^wasm|sha3\.js|cryptoBackends/.test(u) || /^wasm-function/.test(f)],
  ['secp256k1 (recover/sign)', (f, u) => /secp256k1|noble\/curves/.test(u) || /^ecdsa/.test(f)],
  [
    'trie + node store',
    (_, u) => /core\/(dist|src)\/trie\/|NodeTable|PendingNodes|StateNodeDb|GenerationCache/.test(u),
  ],
  [
    'state manager + caches',
    (_, u) =>
      /statemanager|StateCaches|AccountObjectCache|SlotCache|CodeObjectCache|ChainStateManager|stateCacheKeys|accountRlp|JournaledMap|ForkStateManager/.test(
        u,
      ),
  ],
  [
    'EVM + runTx',
    (_, u) => /@ethereumjs\/evm|@ethereumjs\/vm\/dist\/esm\/runTx|core\/(dist|src)\/(evm|exec|trace|console)\//.test(u),
  ],
  [
    'tx objects (decode/sign)',
    (_, u) => /@ethereumjs\/tx|core\/(dist|src)\/mempool\/|rpc\/(dist|src)\/shared\/sign/.test(u),
  ],
  ['block building', (_, u) => /@ethereumjs\/block|@ethereumjs\/vm|core\/(dist|src)\/miner\//.test(u)],
  [
    'chain commit + store',
    (_, u) =>
      /ChainStore|memoryStorage|MemoryBlockTables|memory-level|abstract-level|red-black|ChainService|core\/(dist|src)\/storage\/|receiptCodec/.test(
        u,
      ),
  ],
  ['explorer index + logs', (_, u) => /core\/(dist|src)\/(index|logs)\/|explorer\/(dist|src)\//.test(u)],
  [
    'RLP + bytes/hex',
    (f, u) =>
      /@ethereumjs\/rlp|fastRlp|hexBuiltins|@ethereumjs\/util|noble\/hashes\/utils|util\/hex|compactBytes/.test(u) ||
      /^(hexSlice|latin1Slice|utf8Slice|slice|subarray|from|Uint8Array|set|toString)$/.test(f),
  ],
  [
    'HTTP + JSON-RPC layer',
    (f, u) =>
      /transport-http|transport-ws|node:_http|node:net|node:internal\/streams|stream_base|rpc\/(dist|src)\/|core\/(dist|src)\/(rpc|kernel|provider)\/|node:events|eventemitter3/.test(
        u,
      ) || /^(writev|writeBuffer|parse|stringify)$/.test(f),
  ],
  ['promise machinery', (f) => f === 'runMicrotasks'],
];

const OTHER = 'other (node internals, program)';

export function stageOf(fn: string, url: string): string {
  for (const [stage, matches] of STAGE_RULES) if (matches(fn, url)) return stage;
  return OTHER;
}

/** Self time per profile node, optionally only the samples after `fromTime` (µs, profile clock). */
function selfTimes(p: CpuProfile, fromTime: number): Map<number, number> {
  const out = new Map<number, number>();
  let ts = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    ts += dt;
    if (ts < fromTime) continue;
    out.set(p.samples[i], (out.get(p.samples[i]) ?? 0) + dt);
  }
  return out;
}

export interface StageReport {
  busyUs: number;
  stages: { stage: string; us: number; top: { fn: string; us: number }[] }[];
}

export function stageReport(p: CpuProfile, lastMs?: number): StageReport {
  const from = lastMs === undefined ? -Infinity : p.endTime - lastMs * 1000;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const stages = new Map<string, { us: number; fns: Map<string, number> }>();
  let busyUs = 0;
  for (const [id, us] of selfTimes(p, from)) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const stage = stageOf(functionName, url);
    if (stage === 'idle') continue;
    busyUs += us;
    let s = stages.get(stage);
    if (s === undefined) {
      s = { us: 0, fns: new Map() };
      stages.set(stage, s);
    }
    s.us += us;
    const where = url.replace(/.*node_modules\//, '').replace(/.*packages\//, '');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    s.fns.set(key, (s.fns.get(key) ?? 0) + us);
  }
  return {
    busyUs,
    stages: [...stages]
      .map(([stage, s]) => ({
        stage,
        us: s.us,
        top: [...s.fns].map(([fn, us]) => ({ fn, us })).sort((a, b) => b.us - a.us),
      }))
      .sort((a, b) => b.us - a.us),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const [file, opsArg] = args.filter((a) => !a.startsWith('--'));
  if (!file) {
    console.error('usage: stages.ts FILE.cpuprofile [OPS] [--last-ms=N] [--top=N]');
    process.exit(2);
  }
  const ops = Number(opsArg ?? 1);
  const lastMs = flag('last-ms');
  const top = Number(flag('top') ?? 0);
  const report = stageReport(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, lastMs ? Number(lastMs) : undefined);
  const per = (us: number) => (us / ops).toFixed(0).padStart(7);
  console.log(`busy ${(report.busyUs / 1000).toFixed(0)} ms = ${per(report.busyUs).trim()} µs per op (${ops} ops)`);
  for (const s of report.stages) {
    console.log(`${per(s.us)} µs  ${((100 * s.us) / report.busyUs).toFixed(1).padStart(5)}%  ${s.stage}`);
    for (const f of s.top.slice(0, top)) console.log(`           ${per(f.us)} µs  ${f.fn}`);
  }
}
