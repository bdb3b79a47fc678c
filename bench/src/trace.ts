// debug_traceTransaction with the default struct logger (geth's opcode logger: stack and storage,
// no memory) for one contract transaction of ~1,000,000 gas, timed on Ashlar (`ashlar --memory`
// over HTTP), Anvil (`anvil --steps-tracing` over HTTP) and Hardhat (its in-process EDR network:
// no HTTP or JSON in the way, which favours it), in the same run, on the same transaction.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCli } from './cli.js';
import type { Request } from './devSuiteShape.js';
import { openHardhat } from './hardhatNetwork.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOOPER = '0x00000000000000000000000000000000000100b0';
/** Iterations of the loop: ~238 gas each (see LOOP_CODE), about 1,000,000 gas in all. */
const ITERATIONS = 4000;
// PUSH2 n; loop: JUMPDEST; slot0 += 1 (PUSH1 0 SLOAD PUSH1 1 ADD PUSH1 0 SSTORE); n -= 1;
// JUMPI(loop, n); STOP. Warm SLOAD 100 + dirty SSTORE 100 + 38 for the rest per iteration.
const LOOP_CODE = `0x61${ITERATIONS.toString(16).padStart(4, '0')}5b600054600101600055600190038060035700`;

function httpRequest(url: string): Request {
  let id = 0;
  return async ({ method, params = [] }) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function startAnvil(): Promise<{ request: Request; child: ChildProcess } | { skipped: string }> {
  const port = await freePort();
  const bin = join(ROOT, 'node_modules/.bin/anvil');
  const child = spawn(bin, ['--port', String(port), '--silent', '--steps-tracing'], { stdio: 'ignore' });
  const request = httpRequest(`http://127.0.0.1:${port}`);
  const exited = new Promise<string>((ok) => {
    child.once('error', (e) => ok(e.message));
    child.once('exit', (c) => ok(`exited with ${c}`));
  });
  for (let i = 0; i < 200; i++) {
    const up = await Promise.race([
      request({ method: 'eth_chainId' }).then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (up === true) return { request, child };
    if (typeof up === 'string') return { skipped: `anvil ${up}` };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  return { skipped: 'anvil did not answer within 10 s' };
}

interface SideFigures {
  'gas used': number;
  'struct logs': number;
  'debug_traceTransaction median, ms': number;
  'debug_traceTransaction min, ms': number;
}

async function measure(request: Request, runs: number): Promise<SideFigures> {
  const [from] = (await request({ method: 'eth_accounts' })) as string[];
  await request({ method: 'hardhat_setCode', params: [LOOPER, LOOP_CODE] });
  // A block after the edit, so the traced transaction's parent state holds the code everywhere
  // (Ashlar replays a block on its parent block's state root; see docs/tracing.md).
  await request({ method: 'evm_mine', params: [] });
  const hash = (await request({
    method: 'eth_sendTransaction',
    params: [{ from, to: LOOPER, gas: '0x1e8480', maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x3b9aca00' }],
  })) as string;
  // Anvil may answer the send a moment before its receipt exists.
  let receipt: { gasUsed: string } | null = null;
  for (let i = 0; i < 100 && !receipt; i++) {
    receipt = (await request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { gasUsed: string } | null;
    if (!receipt) await new Promise((r) => setTimeout(r, 50));
  }
  if (!receipt) throw new Error(`no receipt for ${hash}`);
  const times: number[] = [];
  let steps = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const trace = (await request({ method: 'debug_traceTransaction', params: [hash, {}] })) as {
      structLogs: unknown[];
    };
    times.push(performance.now() - t0);
    steps = trace.structLogs.length;
  }
  times.sort((a, b) => a - b);
  return {
    'gas used': Number(receipt.gasUsed),
    'struct logs': steps,
    'debug_traceTransaction median, ms': Math.round(times[Math.floor(times.length / 2)]),
    'debug_traceTransaction min, ms': Math.round(times[0]),
  };
}

export async function traceBench(quick: boolean): Promise<Record<string, unknown>> {
  const runs = quick ? 3 : 7;
  const out: Record<string, unknown> = { runs };
  const ashlar = await startCli(ROOT, ['--memory']);
  try {
    out.ashlar = await measure(httpRequest(ashlar.url), runs);
  } finally {
    await ashlar.stop();
  }
  const anvil = await startAnvil();
  if ('skipped' in anvil) out.anvil = anvil;
  else
    try {
      out.anvil = await measure(anvil.request, runs);
    } finally {
      anvil.child.kill();
    }
  const hardhat = await openHardhat();
  if ('skipped' in hardhat) out.hardhat = hardhat;
  else
    try {
      const chain = await hardhat.open();
      out.hardhat = { version: hardhat.version, ...(await measure(chain.request, runs)) };
      await chain.close();
    } finally {
      hardhat.close();
    }
  return out;
}
