// Contract verification (issue 7): from a Hardhat or Foundry build folder (--artifacts), from
// standard JSON input (Blockscout's endpoint) and through the Etherscan-compatible /api; full
// and partial metadata matches; persistence on LevelDB; failures that say why and store nothing.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kernel } from '@ashlar/core';
import { explorerOf } from '@ashlar/explorer';
import { levelStorage } from '@ashlar/storage-level';
import { AbiCoder, getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSources } from './contracts/compile.js';
import {
  type StandardJson,
  compile,
  solcLongVersion,
  writeFoundryBuild,
  writeHardhatBuild,
} from './helpers/buildInfo.js';
import { type Body, ChainDriver, type Hex, apiOk, explorerKernel } from './helpers/explorerChain.js';
import { apiPost } from './helpers/explorerPost.js';
import { runningClis, startCli } from './helpers/cli.js';
import { startNode } from './helpers/node.js';

const VERSION = `v${solcLongVersion()}`;
/** One file of the input: a contract's metadata names only the sources it uses, so it matches the full compile's; compiles faster. */
const only = (file: string): StandardJson => ({ ...compiled.input, sources: { [file]: compiled.input.sources[file] } });
const counterOnly = () => only('Counter.sol');
let tmp: string;
let compiled: ReturnType<typeof compile>;
const kernels: Kernel[] = [];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ashlar-verify-'));
  compiled = compile();
});
afterAll(async () => {
  for (const p of runningClis) p.kill('SIGKILL');
  for (const k of kernels) await k.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function kernel(opts: Parameters<typeof explorerKernel>[0] = {}): Promise<{ k: Kernel; d: ChainDriver }> {
  const k = await explorerKernel(opts);
  kernels.push(k);
  return { k, d: new ChainDriver(k) };
}

/** Waits for the artifacts watcher to finish what the last blocks and file events queued. */
async function settle(k: Kernel): Promise<void> {
  const w = explorerOf(k)?.contracts?.watcher;
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await w?.idle();
  }
}

const detail = (k: Kernel, a: Hex): Promise<Body> => apiOk(k, `/api/v2/smart-contracts/${a}`);
const verifyStandard = (k: Kernel, a: Hex, body: Record<string, unknown>) =>
  apiPost(k, `/api/v2/smart-contracts/${a}/verification/via/standard-input`, body);
const strip = (b: Body) => {
  const { verified_at: _v, ...rest } = b;
  return rest;
};

describe('--artifacts: a Hardhat build-info folder', () => {
  let k: Kernel;
  let d: ChainDriver;
  let counter: Hex;
  let token: Hex;

  beforeAll(async () => {
    const dir = join(tmp, 'hh');
    mkdirSync(dir);
    const artifacts = writeHardhatBuild(dir, compiled);
    ({ k, d } = await kernel({ explorer: { artifacts } }));
    counter = (await d.deploy('Counter')).address;
    token = (await d.deploy('Token', ['Gold', 'GLD', 1000n])).address;
    await settle(k);
  });

  it('verifies deployed contracts with a full match, immutables and constructor arguments included', async () => {
    const c = await detail(k, counter);
    expect(c.is_verified).toBe(true);
    expect(c.is_fully_verified).toBe(true);
    expect(c.is_partially_verified).toBe(false);
    expect(c.name).toBe('Counter');
    expect(c.file_path).toBe('Counter.sol');
    expect(c.compiler_version).toBe(VERSION);
    expect(c.evm_version).toBe('cancun');
    expect(c.optimization_enabled).toBe(true);
    expect(c.optimizations_runs).toBe(200);
    expect(c.language).toBe('solidity');
    expect(c.source_code).toBe(readSources()['Counter.sol'].content);
    expect(c.compiler_settings.compilationTarget).toEqual({ 'Counter.sol': 'Counter' });
    expect(c.compiler_settings.optimizer).toEqual({ enabled: true, runs: 200 });
    expect(c.compiler_settings.outputSelection).toBeUndefined();
    expect(JSON.parse(c.abi)).toEqual(compiled.output.contracts['Counter.sol'].Counter.abi);
    expect(c.constructor_args).toBe('0x');
    expect(c.decoded_constructor_args).toBeNull();
    expect(c.deployed_bytecode).toBe(await k.request({ method: 'eth_getCode', params: [counter, 'latest'] }));
    expect(c.verified_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    // every other file of the compile is an additional source
    expect(c.additional_sources.map((s: Body) => s.file_path).sort()).toEqual(
      Object.keys(readSources())
        .filter((f) => f !== 'Counter.sol')
        .sort(),
    );

    const t = await detail(k, token);
    expect(t.name).toBe('Token');
    const args = AbiCoder.defaultAbiCoder().encode(['string', 'string', 'uint256'], ['Gold', 'GLD', 1000n]);
    expect(t.constructor_args).toBe(args);
    expect(t.has_constructor_args).toBe(true);
    expect(t.decoded_constructor_args).toEqual([
      ['Gold', { internalType: 'string', name: 'name_', type: 'string' }],
      ['GLD', { internalType: 'string', name: 'symbol_', type: 'string' }],
      ['1000', { internalType: 'uint256', name: 'initialSupply', type: 'uint256' }],
    ]);
    expect(t.creation_bytecode.endsWith(args.slice(2))).toBe(true);
  });

  it('verifies contracts created by contracts (found through the addresses their factory logs)', async () => {
    const factory = (await d.deploy('Factory')).address;
    await d.call('Factory', factory, 'deploy', []);
    await settle(k);
    const created = (await apiOk(k, `/api/v2/addresses/${factory}/logs`)).items[0].decoded.parameters[0].value;
    const c = await detail(k, created);
    expect(c.name).toBe('Counter');
    expect(c.is_fully_verified).toBe(true);
    // made by a contract: no creation transaction of its own
    expect(c.constructor_args).toBeNull();
    expect(c.creation_bytecode).toBeNull();
    expect((await detail(k, factory)).name).toBe('Factory');
  });

  it('marks address references verified and named', async () => {
    const a = await apiOk(k, `/api/v2/addresses/${token}`);
    expect(a.is_verified).toBe(true);
    expect(a.name).toBe('Token');
    expect(a.is_contract).toBe(true);
    const list = await apiOk(k, '/api/v2/smart-contracts');
    expect(list.items.map((i: Body) => i.address.name)).toContain('Token');
  });

  it('gives the same record as the standard-input endpoint', async () => {
    const other = await kernel();
    const od = new ChainDriver(other.k);
    await od.deploy('Counter');
    const again = (await od.deploy('Token', ['Gold', 'GLD', 1000n])).address;
    expect(again).toBe(token);
    const res = await verifyStandard(other.k, again, {
      compiler_version: VERSION,
      contract_name: 'Token.sol:Token',
      files: { 'input.json': JSON.stringify(compiled.input) },
    });
    expect(res).toEqual({
      status: 200,
      body: { message: 'Smart-contract verified', is_fully_verified: true, is_partially_verified: false },
    });
    expect(strip(await detail(other.k, again))).toEqual(strip(await detail(k, token)));
  });
});

describe('snapshots', () => {
  it('follows the code after evm_revert: re-verified from artifacts, or flagged is_changed_bytecode', async () => {
    const dir = join(tmp, 'snap');
    mkdirSync(dir);
    const { k, d } = await kernel({ explorer: { artifacts: writeHardhatBuild(dir, compiled) } });
    const snap = await k.request<Hex>({ method: 'evm_snapshot', params: [] });
    const first = (await d.deploy('Counter')).address;
    await settle(k);
    expect((await detail(k, first)).name).toBe('Counter');
    await k.request({ method: 'evm_revert', params: [snap] });
    const second = (await d.deploy('Token', ['Gold', 'GLD', 1n])).address;
    expect(second).toBe(first);
    await settle(k);
    const t = await detail(k, second);
    expect(t.name).toBe('Token');
    expect(t.is_changed_bytecode).toBe(false);

    // verified by hand (no artifacts for the new code): the record stays, flagged
    const { k: k2, d: d2 } = await kernel();
    const snap2 = await k2.request<Hex>({ method: 'evm_snapshot', params: [] });
    const c = (await d2.deploy('Counter')).address;
    await verifyStandard(k2, c, { compiler_version: VERSION, contract_name: 'Counter', input: counterOnly() });
    expect((await detail(k2, c)).is_changed_bytecode).toBe(false);
    await k2.request({ method: 'evm_revert', params: [snap2] });
    await d2.deploy('Token', ['Gold', 'GLD', 1n]);
    const changed = await detail(k2, c);
    expect(changed.name).toBe('Counter');
    expect(changed.is_changed_bytecode).toBe(true);
  });

  it('pages the list 50 at a time by smart_contract_id', async () => {
    const dir = join(tmp, 'many');
    mkdirSync(dir);
    const { k, d } = await kernel({ explorer: { artifacts: writeHardhatBuild(dir, compiled) } });
    const deployed = new Set<string>();
    for (let i = 0; i < 52; i++) deployed.add(getAddress((await d.deploy('Counter')).address));
    await settle(k);
    const first = await apiOk(k, '/api/v2/smart-contracts');
    expect(first.items).toHaveLength(50);
    expect(first.next_page_params).toEqual({ smart_contract_id: 3, items_count: 50 });
    const second = await apiOk(k, '/api/v2/smart-contracts?smart_contract_id=3&items_count=50');
    expect(second.next_page_params).toBeNull();
    const listed = [...first.items, ...second.items].map((i: Body) => i.address.hash);
    expect(new Set(listed)).toEqual(deployed);
    expect(listed).toHaveLength(52);
  });
});

describe('--artifacts: a Foundry out/ folder, and watching the folder', () => {
  it('verifies from out/**.json with metadata, reading the sources beside out/', async () => {
    const dir = join(tmp, 'forge');
    mkdirSync(dir);
    const out = writeFoundryBuild(dir, compiled);
    const { k, d } = await kernel({ explorer: { artifacts: out } });
    const token = (await d.deploy('Token', ['Gold', 'GLD', 7n])).address;
    await settle(k);
    const t = await detail(k, token);
    expect(t.is_fully_verified).toBe(true);
    expect(t.source_code).toBe(readSources()['Token.sol'].content);
    expect(t.decoded_constructor_args.map((a: Body) => a[0])).toEqual(['Gold', 'GLD', '7']);
  });

  it('verifies when the build appears after the deployment (fs.watch)', async () => {
    const dir = join(tmp, 'late');
    mkdirSync(join(dir, 'artifacts'), { recursive: true });
    const { k, d } = await kernel({ explorer: { artifacts: join(dir, 'artifacts') } });
    const counter = (await d.deploy('Counter')).address;
    await settle(k);
    expect((await detail(k, counter)).is_verified).toBeUndefined();
    writeHardhatBuild(dir, compiled);
    let verified = false;
    for (let i = 0; i < 200 && !verified; i++) {
      await settle(k);
      verified = (await detail(k, counter)).is_verified === true;
    }
    expect(verified).toBe(true);
  });
});

describe('standard JSON input', () => {
  let k: Kernel;
  let d: ChainDriver;
  let counter: Hex;

  beforeAll(async () => {
    ({ k, d } = await kernel());
    counter = (await d.deploy('Counter')).address;
  });

  it('is a partial match when only the metadata differs (a changed comment)', async () => {
    const input: StandardJson = JSON.parse(JSON.stringify(counterOnly()));
    input.sources['Counter.sol'].content += '\n// a comment changes the metadata hash, not the code\n';
    const res = await verifyStandard(k, counter, { compiler_version: VERSION, contract_name: 'Counter', input });
    expect(res.status).toBe(200);
    const c = await detail(k, counter);
    expect(c.is_partially_verified).toBe(true);
    expect(c.is_fully_verified).toBe(false);
    // a full match later replaces the partial one
    await verifyStandard(k, counter, { compiler_version: VERSION, contract_name: 'Counter', input: counterOnly() });
    expect((await detail(k, counter)).is_fully_verified).toBe(true);
  });

  it('answers 422 naming the problem, and stores nothing', async () => {
    const { k: k2, d: d2 } = await kernel();
    const c = (await d2.deploy('Counter')).address;
    const fail = async (body: Record<string, unknown>, address: Hex = c) => {
      const res = await verifyStandard(k2, address, body);
      expect(res.status).toBe(422);
      return String(res.body.message);
    };
    const base = { compiler_version: VERSION, contract_name: 'Counter', input: counterOnly() };
    const token = (await d2.deploy('Token', ['A', 'B', 1n])).address;
    expect(await fail({ ...base, compiler_version: 'v0.8.19+commit.7dd6d404' })).toMatch(
      /compiler version v0\.8\.19\+commit\.7dd6d404 is not available/,
    );
    expect(
      await fail({ ...base, input: { language: 'Solidity', sources: { 'Bad.sol': { content: 'contract {' } } } }),
    ).toMatch(/^compilation failed:[\s\S]*Bad\.sol/);
    expect(await fail({ ...base, input: '{not json' })).toMatch(/not JSON/);
    expect(await fail(base, token)).toMatch(
      /^bytecode does not match: Counter\.sol:Counter: runtime bytecode length differs/,
    );
    expect(await fail({ ...base, contract_name: 'Nope' })).toMatch(/contract Nope is not in the compiled sources/);
    expect(await fail(base, d2.accounts[1])).toMatch(/has no code/);
    expect(await fail({ contract_name: 'Counter', input: counterOnly() })).toBe('compiler_version is missing');
    expect((await verifyStandard(k2, '0x12' as Hex, base)).body).toEqual({ message: 'Invalid parameter(s)' });
    // a contract made by a contract takes no creation input from the chain: given arguments must decode
    const factory = (await d2.deploy('Factory')).address;
    const receipt = await k2.request<{ logs: { topics: Hex[] }[] }>({
      method: 'eth_getTransactionReceipt',
      params: [await d2.call('Factory', factory, 'deploy', [])],
    });
    const made = `0x${receipt.logs[0].topics[1].slice(26)}` as Hex;
    expect(made).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await fail({ ...base, constructor_args: '0x1234' }, made as Hex)).toBe(
      'constructor arguments do not decode: Counter takes none, got 2 bytes',
    );

    const counters = await apiOk(k2, '/api/v2/smart-contracts/counters');
    expect(counters.verified_smart_contracts).toBe('0');
    expect((await detail(k2, c)).is_verified).toBeUndefined();
  });
});

describe('persistence', () => {
  it('verifies at start what was deployed before the node knew the folder', async () => {
    const path = join(tmp, 'db-early');
    const k1 = await explorerKernel({ storage: levelStorage({ path }) });
    const counter = (await new ChainDriver(k1).deploy('Counter')).address;
    await k1.close();
    const dir = join(tmp, 'hh-early');
    mkdirSync(dir);
    const k2 = await explorerKernel({
      storage: levelStorage({ path }),
      explorer: { artifacts: writeHardhatBuild(dir, compiled) },
    });
    kernels.push(k2);
    expect((await detail(k2, counter)).is_fully_verified).toBe(true);
  });

  it('keeps verified contracts with the chain on LevelDB', async () => {
    const path = join(tmp, 'db');
    const k1 = await explorerKernel({ storage: levelStorage({ path }) });
    const d1 = new ChainDriver(k1);
    const counter = (await d1.deploy('Counter')).address;
    const res = await verifyStandard(k1, counter, {
      compiler_version: VERSION,
      input: counterOnly(),
      contract_name: 'Counter',
    });
    expect(res.status).toBe(200);
    const before = await detail(k1, counter);
    await k1.close();
    const k2 = await explorerKernel({ storage: levelStorage({ path }) });
    kernels.push(k2);
    expect(await detail(k2, counter)).toEqual(before);
  });
});

describe('Etherscan-compatible /api', () => {
  it('verifies as hardhat-verify and forge do: form POST, status polling, getabi, getsourcecode', async () => {
    const node = await startNode();
    try {
      const d = new ChainDriver(node.kernel);
      const token = (await d.deploy('Token', ['Gold', 'GLD', 5n])).address;
      const get = async (q: Record<string, string>) =>
        (await fetch(`${node.url}/api?${new URLSearchParams({ module: 'contract', apikey: 'x', ...q })}`)).json();

      const before = await get({ action: 'getsourcecode', address: token });
      expect(before.status).toBe('1');
      expect(before.result[0].SourceCode).toBe('');
      expect(await get({ action: 'getabi', address: token })).toEqual({
        status: '0',
        message: 'NOTOK',
        result: 'Contract source code not verified',
      });

      const args = AbiCoder.defaultAbiCoder().encode(['string', 'string', 'uint256'], ['Gold', 'GLD', 5n]);
      const form = new URLSearchParams({
        apikey: 'x',
        module: 'contract',
        action: 'verifysourcecode',
        contractaddress: token,
        sourceCode: JSON.stringify(only('Token.sol')),
        codeformat: 'solidity-standard-json-input',
        contractname: 'Token.sol:Token',
        compilerversion: VERSION,
        constructorArguements: args.slice(2),
      });
      const post = await (
        await fetch(`${node.url}/api`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        })
      ).json();
      expect(post.status).toBe('1');
      expect(post.result).toMatch(/^[0-9a-f-]{36}$/);
      expect(await get({ action: 'checkverifystatus', guid: post.result })).toEqual({
        status: '1',
        message: 'OK',
        result: 'Pass - Verified',
      });
      const abi = await get({ action: 'getabi', address: token });
      expect(JSON.parse(abi.result)).toEqual(compiled.output.contracts['Token.sol'].Token.abi);
      const src = (await get({ action: 'getsourcecode', address: token })).result[0];
      expect(src.ContractName).toBe('Token');
      expect(src.CompilerVersion).toBe(VERSION);
      expect(src.OptimizationUsed).toBe('1');
      expect(src.Runs).toBe('200');
      expect(src.ConstructorArguments).toBe(args.slice(2));
      // one source file: Etherscan's single-file form, the text itself
      expect(src.SourceCode).toBe(readSources()['Token.sol'].content);

      // a failing submission says why at once (hardhat-verify and forge print `result`)
      form.set('contractname', 'Counter.sol:Counter');
      form.set('contractaddress', (await d.deploy('Token', ['A', 'B', 1n])).address);
      const bad = await (await fetch(`${node.url}/api`, { method: 'POST', body: form })).json();
      expect(bad.status).toBe('0');
      expect(bad.result).toBe('contract Counter.sol:Counter is not in the compiled sources');
      expect(await get({ action: 'checkverifystatus', guid: 'nope' })).toEqual({
        status: '0',
        message: 'NOTOK',
        result: 'Unknown UID',
      });
    } finally {
      await node.close();
    }
  });
});

describe('the ashlar command', () => {
  it('--artifacts DIR: deploy, and the explorer shows the contract verified, with decoded input', async () => {
    const dir = join(tmp, 'cli');
    mkdirSync(dir);
    const artifacts = writeHardhatBuild(dir, compiled);
    const cli = startCli(['--memory', '--port', '0', '--artifacts', artifacts]);
    const url = await cli.url;
    const rpc = async <T>(method: string, params: unknown[]): Promise<T> =>
      (
        await (
          await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          })
        ).json()
      ).result as T;
    const [from] = await rpc<Hex[]>('eth_accounts', []);
    const { loadArtifact } = await import('./helpers/contracts.js');
    const deploy = await rpc<Hex>('eth_sendTransaction', [
      { from, data: loadArtifact('Counter').bytecode, gas: '0x200000' },
    ]);
    const counter = (await rpc<{ contractAddress: Hex }>('eth_getTransactionReceipt', [deploy])).contractAddress;
    const call = await rpc<Hex>('eth_sendTransaction', [{ from, to: counter, data: '0xd09de08a' }]);
    let c: Body = {};
    for (let i = 0; i < 100 && c.is_verified !== true; i++) {
      await new Promise((r) => setTimeout(r, 50));
      c = await (await fetch(`${url}/api/v2/smart-contracts/${counter}`)).json();
    }
    expect(c.name).toBe('Counter');
    expect(c.is_fully_verified).toBe(true);
    const tx = await (await fetch(`${url}/api/v2/transactions/${call}`)).json();
    expect(tx.decoded_input).toEqual({ method_call: 'increment()', method_id: 'd09de08a', parameters: [] });
    cli.proc.kill('SIGTERM');
    await cli.exit;
  });
});
