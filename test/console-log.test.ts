/**
 * console.log from Solidity (issue #18), differential against Hardhat 2.29.1's node: a contract
 * with a console library written here logs every kind of argument and format string; Ashlar's
 * `console` events carry the lines Hardhat's node prints, once per mined transaction, for
 * eth_call, not for gas estimates (unless asked), and the call costs the same gas.
 */
import { createRequire } from 'node:module';
import { type ConsoleEvent, createProvider, decodeConsoleCall } from '@ashlar/core';
import { createNode } from 'ashlar';
import { Interface, keccak256, toUtf8Bytes } from 'ethers';
import solc from 'solc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningClis, startCli } from './helpers/cli.js';
import { CONSOLE_SOURCE as SOURCE } from './helpers/consoleContract.js';
import { hardhatProvider } from './helpers/hardhatPeer.js';

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const CONSOLE_ADDRESS = '0x000000000000000000636f6e736f6c652e6c6f67';

function compile(): { abi: unknown[]; bytecode: string } {
  const input = {
    language: 'Solidity',
    sources: { 'Logs.sol': { content: SOURCE } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const c = out.contracts['Logs.sol'].Logs;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

type Rpc = (method: string, params?: unknown[]) => Promise<unknown>;

interface Scenario {
  contract: string;
  runHash: string;
  runGas: string;
  failHash: string;
  failGas: string;
}

const art = compile();
const iface = new Interface(art.abi as never);
const runData = iface.encodeFunctionData('run', [-5, '0xdeadbeef', '0x12345678', `0x${'ab'.repeat(32)}`]);

/** Deploy, run (mined), peek (eth_call), peek (eth_estimateGas), fail (mined, reverted): the same on both nodes. */
async function scenario(rpc: Rpc, mark: (step: string) => void): Promise<Scenario> {
  const deployHash = await rpc('eth_sendTransaction', [{ from: A0, data: art.bytecode }]);
  const deployed = (await rpc('eth_getTransactionReceipt', [deployHash])) as { contractAddress: string };
  const contract = deployed.contractAddress;
  mark('run');
  const runHash = (await rpc('eth_sendTransaction', [{ from: A0, to: contract, data: runData }])) as string;
  mark('call');
  await rpc('eth_call', [{ from: A0, to: contract, data: iface.encodeFunctionData('peek') }, 'latest']);
  mark('estimate');
  await rpc('eth_estimateGas', [{ from: A0, to: contract, data: iface.encodeFunctionData('peek') }]);
  mark('fail');
  await expect(
    rpc('eth_sendTransaction', [{ from: A0, to: contract, data: iface.encodeFunctionData('fail') }]),
  ).rejects.toThrow(/reverted with reason string 'nope'/);
  mark('end');
  const failBlock = (await rpc('eth_getBlockByNumber', ['latest', false])) as { transactions: string[] };
  const failHash = failBlock.transactions[0];
  const gasOf = async (h: string) => ((await rpc('eth_getTransactionReceipt', [h])) as { gasUsed: string }).gasUsed;
  return { contract, runHash, runGas: await gasOf(runHash), failHash, failGas: await gasOf(failHash) };
}

/** Hardhat's node log split by step: the lines of each `console.log:` block (indent removed). */
function hardhatConsoleBlocks(lines: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let step = '';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('#step ')) {
      step = lines[i].slice(6);
      continue;
    }
    if (lines[i].trim() !== 'console.log:') continue;
    const block: string[] = [];
    let j = i + 1;
    for (; j < lines.length && (lines[j] === '' || lines[j].startsWith('    ')); j++) block.push(lines[j].slice(4));
    // The block ends with one blank line of its own.
    if (block[block.length - 1] === '') block.pop();
    out[step] = [...(out[step] ?? []), ...block];
    i = j - 1;
  }
  return out;
}

describe('console.log', () => {
  let hardhat: Record<string, string[]>;
  let theirs: Scenario;
  let ours: Scenario;
  const events: { step: string; event: ConsoleEvent }[] = [];
  const messages: { type: string; data: unknown }[] = [];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const printed: string[] = [];
    const hh = await hardhatProvider({ printLine: (l) => printed.push(l) });
    theirs = await scenario(
      (method, params = []) => hh.request({ method, params }),
      (step) => printed.push(`#step ${step}`),
    );
    hardhat = hardhatConsoleBlocks(printed);

    const kernel = await createNode();
    close = () => kernel.close();
    const provider = createProvider(kernel);
    let step = '';
    kernel.events.on('console', (event) => events.push({ step, event }));
    provider.on('message', (m) => messages.push(m));
    ours = await scenario(
      (method, params = []) => provider.request({ method, params }),
      (s) => {
        step = s;
      },
    );
  }, 120_000);
  afterAll(() => close?.());

  it('prints the lines Hardhat prints for a mined transaction, once, with each kind of argument', () => {
    expect(hardhat.run.length).toBe(16);
    const run = events.filter((e) => e.event.txHash === ours.runHash);
    expect(run.map((e) => e.event.message)).toEqual(hardhat.run);
    // Not during the gas estimate of the send (sendDefaults 'spec' estimates a call that needs more than 90,000)
    expect(events.filter((e) => e.step === 'run' && e.event.txHash === undefined)).toEqual([]);
    for (const { event } of run) expect(event.address).toBe(ours.contract);
    expect(run[11].event.args).toEqual(['-5']);
    expect(run[2].event.args).toEqual(['count %d of %i', '1', '1000']);
  });

  it('charges the gas Hardhat charges for the console calls', () => {
    expect(ours.contract).toBe(theirs.contract);
    expect(ours.runGas).toBe(theirs.runGas);
    expect(ours.failGas).toBe(theirs.failGas);
  });

  it('prints eth_call lines, with the call, and none for eth_estimateGas', () => {
    expect(hardhat.call).toEqual(['peek sees 1']);
    const call = events.filter((e) => e.step === 'call');
    expect(call.map((e) => e.event.message)).toEqual(hardhat.call);
    expect(call[0].event.call).toEqual({ method: 'eth_call', from: A0, to: ours.contract });
    expect(call[0].event.txHash).toBeUndefined();
    expect(hardhat.estimate).toBeUndefined();
    expect(events.filter((e) => e.step === 'estimate')).toEqual([]);
  });

  it('prints the lines of a reverted transaction, once', () => {
    expect(hardhat.fail).toEqual(['about to fail at 2']);
    const fail = events.filter((e) => e.event.txHash === ours.failHash);
    expect(fail.map((e) => e.event.message)).toEqual(hardhat.fail);
    expect(events.filter((e) => e.step === 'fail').length).toBe(1);
  });

  it('emits each line as an EIP-1193 message of the provider', () => {
    const consoleMessages = messages.filter((m) => m.type === 'console').map((m) => m.data);
    expect(consoleMessages).toEqual(events.map((e) => e.event));
  });
});

describe('console.log options and decoding', () => {
  it('sends eth_estimateGas lines when asked (once per estimate, not per search run)', async () => {
    const kernel = await createNode({ consoleInEstimates: true });
    try {
      const rpc: Rpc = (method, params = []) => kernel.request({ method, params });
      const events: ConsoleEvent[] = [];
      const h = await rpc('eth_sendTransaction', [{ from: A0, data: art.bytecode }]);
      const { contractAddress } = (await rpc('eth_getTransactionReceipt', [h])) as { contractAddress: string };
      kernel.events.on('console', (e) => events.push(e));
      await rpc('eth_estimateGas', [{ from: A0, to: contractAddress, data: iface.encodeFunctionData('peek') }]);
      expect(events.map((e) => [e.message, e.call?.method])).toEqual([['peek sees 0', 'eth_estimateGas']]);
    } finally {
      await kernel.close();
    }
  });

  it('prints what Hardhat prints for a transaction sent to the console address itself, and nothing for a value transfer', async () => {
    const direct = new Interface(['function log(string)']).encodeFunctionData('log', ['sent straight to console']);
    const send = async (rpc: Rpc, mark: (step: string) => void) => {
      mark('direct');
      await rpc('eth_sendTransaction', [{ from: A0, to: CONSOLE_ADDRESS, data: direct }]);
      mark('transfer');
      await rpc('eth_sendTransaction', [{ from: A0, to: '0x00000000000000000000000000000000000c0ffe', value: '0x1' }]);
      mark('end');
    };
    const printed: string[] = [];
    const hh = await hardhatProvider({ printLine: (l) => printed.push(l) });
    await send(
      (method, params = []) => hh.request({ method, params }),
      (step) => printed.push(`#step ${step}`),
    );
    const theirs = hardhatConsoleBlocks(printed);
    const kernel = await createNode();
    try {
      const ours: Record<string, string[]> = {};
      let step = '';
      kernel.events.on('console', (e) => {
        ours[step] = [...(ours[step] ?? []), e.message];
      });
      await send(
        (method, params = []) => kernel.request({ method, params }),
        (s) => {
          step = s;
        },
      );
      expect(theirs.direct).toEqual(['sent straight to console']);
      expect(ours).toEqual(theirs);
    } finally {
      await kernel.close();
    }
  });

  it("debug_traceTransaction's call tracer shows the console calls as calls", async () => {
    const kernel = await createNode();
    try {
      const rpc: Rpc = (method, params = []) => kernel.request({ method, params });
      const h = await rpc('eth_sendTransaction', [{ from: A0, data: art.bytecode }]);
      const { contractAddress } = (await rpc('eth_getTransactionReceipt', [h])) as { contractAddress: string };
      const run = await rpc('eth_sendTransaction', [{ from: A0, to: contractAddress, data: runData }]);
      const trace = (await rpc('debug_traceTransaction', [run, { tracer: 'callTracer' }])) as {
        calls?: { type: string; to: string }[];
      };
      const consoleCalls = (trace.calls ?? []).filter((c) => c.to === CONSOLE_ADDRESS);
      expect(consoleCalls.length).toBe(16);
      expect(new Set(consoleCalls.map((c) => c.type))).toEqual(new Set(['STATICCALL']));
    } finally {
      await kernel.close();
    }
  });

  it("knows every selector of Hardhat's console.sol table, with the same argument types", () => {
    const require = createRequire(import.meta.url);
    const { CONSOLE_LOG_SIGNATURES } = require('hardhat/internal/hardhat-network/stack-traces/logger.js') as {
      CONSOLE_LOG_SIGNATURES: Record<string, string[]>;
    };
    const sample: Record<string, string> = {
      Uint256: '7',
      Int256: '-7',
      String: 'hi',
      Bool: 'true',
      Address: '0x00000000000000000000000000000000000000aa',
      Bytes: '0xbeef',
    };
    const coder = new Interface([]).getAbiCoder();
    const abiType = (t: string) => (t.startsWith('Bytes') && t !== 'Bytes' ? `bytes${t.slice(5)}` : t.toLowerCase());
    const entries = Object.entries(CONSOLE_LOG_SIGNATURES);
    expect(entries.length).toBeGreaterThan(370);
    for (const [selector, types] of entries) {
      const values = types.map((t) => sample[t] ?? `0x${'11'.repeat(Number(t.slice(5)))}`);
      const encoded = coder.encode(
        types.map(abiType),
        values.map((v, i) => (types[i] === 'Bool' ? v === 'true' : v)),
      );
      const calldata = Buffer.from(`${Number(selector).toString(16).padStart(8, '0')}${encoded.slice(2)}`, 'hex');
      expect(decodeConsoleCall(calldata), `selector ${selector}`).toEqual(values);
    }
  });

  it("decodes the older console.sol's `uint`/`int` selectors, and ignores unknown or short data", () => {
    const legacy = keccak256(toUtf8Bytes('log(uint)')).slice(2, 10);
    expect(decodeConsoleCall(Buffer.from(`${legacy}${'0'.repeat(62)}2a`, 'hex'))).toEqual(['42']);
    expect(decodeConsoleCall(Buffer.from('deadbeef', 'hex'))).toBeUndefined();
    const logString = keccak256(toUtf8Bytes('log(string)')).slice(2, 10);
    // An offset beyond the data: not a console line (the call is still just a call).
    expect(decodeConsoleCall(Buffer.from(`${logString}${'f'.repeat(64)}`, 'hex'))).toBeUndefined();
  });
});

describe('console.log on the CLI', () => {
  afterAll(() => {
    for (const p of runningClis) p.kill('SIGKILL');
  });

  it('prints each line once under its transaction, and eth_call lines, on stdout', async () => {
    const cli = startCli(['--memory', '--port', '0', '--no-explorer-ui']);
    try {
      const url = await cli.url;
      let id = 0;
      const rpc: Rpc = async (method, params = []) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        });
        const body = (await res.json()) as { result?: unknown; error?: { message: string } };
        if (body.error) throw new Error(body.error.message);
        return body.result;
      };
      const ours = await scenario(rpc, () => undefined);
      // Output is written as events arrive; wait until the last line is there.
      for (let i = 0; i < 100 && !cli.stdout().includes('about to fail at 2'); i++)
        await new Promise((r) => setTimeout(r, 50));
      const out = cli.stdout();
      const after = out.slice(out.indexOf(`console.log (transaction ${ours.runHash}):`));
      // log() prints an empty line.
      const expected = `console.log (transaction ${ours.runHash}):\n\n  plain string\n  count 1 of 1000\n`;
      expect(after.startsWith(expected), after.slice(0, 200)).toBe(true);
      expect(out.split(`console.log (transaction ${ours.runHash}):`).length).toBe(2);
      expect(out.split('  count 1 of 1000\n').length).toBe(2);
      expect(out).toContain(`console.log (eth_call to ${ours.contract}):\n  peek sees 1\n`);
      expect(out.split('peek sees').length).toBe(2);
      expect(out).toContain(`console.log (transaction ${ours.failHash}):\n  about to fail at 2\n`);
    } finally {
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }
  }, 60_000);
});
