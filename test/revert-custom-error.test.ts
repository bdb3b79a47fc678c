/**
 * Readable failures (issue #18): a call or send that reverts with a custom error names it with
 * its decoded arguments, the contract and the function when the contract is verified (here from
 * a Hardhat build folder, --artifacts), in Hardhat 2.29.1's words (checked against its node given
 * the same compile); unverified, the message keeps the raw selector. Code and data are unchanged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kernel } from '@ashlar/core';
import { explorerOf } from '@ashlar/explorer';
import { Interface, getAddress } from 'ethers';
import solc from 'solc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SETTINGS, compile, solcLongVersion, writeHardhatBuild } from './helpers/buildInfo.js';
import { explorerKernel } from './helpers/explorerChain.js';
import { type Eip1193, hardhatProvider } from './helpers/hardhatPeer.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Boom {
  struct Pair { uint256 a; string b; }
  error Nope(uint256 code, string why, address who, bool flag, bytes32 tag, int8 neg, uint256[] list, bytes raw, Pair pair);
  error Empty();
  error NoSuchFunction(bytes4 sel);
  error Deep(Pair[] pairs, uint8[2] fixedList, bytes4 sel, int256 big, string empty);
  function fail(uint256 x) external view {
    uint256[] memory list = new uint256[](2);
    list[0] = 1;
    list[1] = 2;
    revert Nope(x, "bad", msg.sender, true, bytes32(uint256(1)), -3, list, hex"beef", Pair(7, "s"));
  }
  function empty() external pure { revert Empty(); }
  function deep() external pure {
    Pair[] memory pairs = new Pair[](2);
    pairs[0] = Pair(1, "x");
    pairs[1] = Pair(2, "y");
    revert Deep(pairs, [uint8(3), 4], this.deep.selector, type(int256).min, "");
  }
  fallback() external { revert NoSuchFunction(msg.sig); }
  function plain() external pure { revert("plain reason"); }
}`;

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const build = compile({ 'Boom.sol': { content: SOURCE } });
const boom = build.output.contracts['Boom.sol'].Boom;
const iface = new Interface(boom.abi);
const FAIL = iface.encodeFunctionData('fail', [42n]);
const EMPTY = iface.encodeFunctionData('empty');
const PLAIN = iface.encodeFunctionData('plain');
const DEEP = iface.encodeFunctionData('deep');

interface RpcFailure {
  code: number;
  message: string;
  data: unknown;
}
async function failure(p: Eip1193, method: string, params: unknown[]): Promise<RpcFailure> {
  try {
    await p.request({ method, params });
  } catch (e) {
    const { code, message, data } = e as RpcFailure;
    return { code, message, data };
  }
  throw new Error(`${method} did not fail`);
}

async function deploy(p: Eip1193, bytecode: string = boom.evm.bytecode.object): Promise<string> {
  const hash = await p.request({
    method: 'eth_sendTransaction',
    params: [{ from: A0, data: `0x${bytecode}` }],
  });
  const r = (await p.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string };
  return r.contractAddress.toLowerCase();
}

let dir: string;
const kernels: Kernel[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ashlar-custom-error-'));
});
afterAll(async () => {
  for (const k of kernels) await k.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a verified contract (--artifacts)', () => {
  let k: Kernel;
  let hh: Eip1193;
  let address: string;

  beforeAll(async () => {
    k = await explorerKernel({ explorer: { artifacts: writeHardhatBuild(dir, build) } });
    kernels.push(k);
    address = await deploy(k);
    for (let i = 0; i < 100 && explorerOf(k)?.contracts?.get(address)?.name !== 'Boom'; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(explorerOf(k)?.contracts?.get(address)?.name).toBe('Boom');

    // Hardhat's node names custom errors of contracts it compiled: give it the same compile
    // (with the AST and source maps it needs; the bytecode is the same).
    const input = {
      language: 'Solidity',
      sources: build.input.sources,
      settings: {
        ...FIXTURE_SETTINGS,
        outputSelection: {
          '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers'], '': ['ast'] },
        },
      },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input)));
    expect(output.contracts['Boom.sol'].Boom.evm.bytecode.object).toBe(boom.evm.bytecode.object);
    hh = await hardhatProvider();
    await hh.request({
      method: 'hardhat_addCompilationResult',
      params: [solcLongVersion().split('+')[0], input, output],
    });
    expect(await deploy(hh)).toBe(address);
  }, 60_000);

  const where = () => `(Boom.fail at ${getAddress(address)})`;

  it('eth_sendTransaction: Hardhat’s message, then the contract, function and address; code and data as before', async () => {
    const ours = await failure(k, 'eth_sendTransaction', [{ from: A0, to: address, data: FAIL, gas: '0x100000' }]);
    const theirs = await failure(hh, 'eth_sendTransaction', [{ from: A0, to: address, data: FAIL, gas: '0x100000' }]);
    expect(theirs.message).toMatch(
      /^VM Exception while processing transaction: reverted with custom error 'Nope\(42, /,
    );
    expect(ours.message).toBe(`Error: ${theirs.message} ${where()}`);
    expect(ours.code).toBe(-32603);
    const data = ours.data as { message: string; txHash: string; data: string };
    expect(data.message).toBe(ours.message);
    expect(data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Hardhat's in-process provider puts the revert bytes straight in `data`; over HTTP, in `data.data`.
    expect(data.data).toBe(theirs.data);
  });

  it('eth_call and eth_estimateGas: error 3 with the revert bytes, the message naming the error as Hardhat does', async () => {
    const theirs = await failure(hh, 'eth_call', [{ from: A0, to: address, data: FAIL }]);
    const inner = theirs.message.replace('VM Exception while processing transaction: reverted with ', '');
    expect(inner).toMatch(/^custom error 'Nope\(42, "bad", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", true, /);
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const ours = await failure(k, method, [{ from: A0, to: address, data: FAIL }]);
      expect(ours.code).toBe(3);
      expect(ours.message).toBe(`execution reverted: ${inner} ${where()}`);
      expect(ours.data).toBe(
        iface.encodeErrorResult('Nope', [
          42n,
          'bad',
          getAddress(A0),
          true,
          `0x${'0'.repeat(63)}1`,
          -3n,
          [1n, 2n],
          '0xbeef',
          [7n, 's'],
        ]),
      );
    }
  });

  it('an error without arguments, and reason strings as before', async () => {
    const theirs = await failure(hh, 'eth_call', [{ from: A0, to: address, data: EMPTY }]);
    expect(theirs.message).toBe("VM Exception while processing transaction: reverted with custom error 'Empty()'");
    const ours = await failure(k, 'eth_call', [{ from: A0, to: address, data: EMPTY }]);
    expect(ours.message).toBe(`execution reverted: custom error 'Empty()' (Boom.empty at ${getAddress(address)})`);
    const plain = await failure(k, 'eth_sendTransaction', [{ from: A0, to: address, data: PLAIN, gas: '0x100000' }]);
    expect(plain.message).toBe(
      "Error: VM Exception while processing transaction: reverted with reason string 'plain reason'",
    );
  });

  it('nested arrays and structs, fixed arrays, bytes4 and large negatives as Hardhat prints them; the fallback names only the contract', async () => {
    const theirs = await failure(hh, 'eth_sendTransaction', [{ from: A0, to: address, data: DEEP, gas: '0x100000' }]);
    expect(theirs.message).toMatch(/reverted with custom error 'Deep\(/);
    const ours = await failure(k, 'eth_sendTransaction', [{ from: A0, to: address, data: DEEP, gas: '0x100000' }]);
    expect(ours.message).toBe(`Error: ${theirs.message} (Boom.deep at ${getAddress(address)})`);
    const viaFallback = await failure(k, 'eth_call', [{ from: A0, to: address, data: '0x12345678' }]);
    expect(viaFallback.message).toBe(
      `execution reverted: custom error 'NoSuchFunction("0x12345678")' (Boom at ${getAddress(address)})`,
    );
  });
});

describe('--artifacts with source maps (a Hardhat build keeps them)', () => {
  it.each([true, false])(
    'eth_call and eth_estimateGas and sends name the Solidity line of the revert (optimizer %s)',
    async (optimize) => {
      const settings = {
        ...FIXTURE_SETTINGS,
        optimizer: { enabled: optimize, runs: 200 },
        outputSelection: {
          '*': { '*': [...FIXTURE_SETTINGS.outputSelection['*']['*'], 'evm.deployedBytecode.sourceMap'] },
        },
      };
      const input = { language: 'Solidity', sources: build.input.sources, settings };
      const output = JSON.parse(solc.compile(JSON.stringify(input)));
      const withMaps = join(dir, `with-maps-${optimize}`);
      const k = await explorerKernel({ explorer: { artifacts: writeHardhatBuild(withMaps, { input, output }) } });
      kernels.push(k);
      const address = await deploy(k, output.contracts['Boom.sol'].Boom.evm.bytecode.object);
      for (let i = 0; i < 100 && explorerOf(k)?.contracts?.get(address)?.name !== 'Boom'; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      // The line of the source text that holds each revert statement.
      const lineOf = (text: string) => SOURCE.split('\n').findIndex((l) => l.includes(text)) + 1;
      for (const method of ['eth_call', 'eth_estimateGas']) {
        const fail = await failure(k, method, [{ from: A0, to: address, data: FAIL }]);
        expect(fail.message).toMatch(
          new RegExp(
            `^execution reverted: custom error 'Nope\\(42, .*\\)' \\(Boom\\.fail at ${getAddress(address)}, Boom\\.sol:${lineOf('revert Nope(')}\\)$`,
          ),
        );
        const empty = await failure(k, method, [{ from: A0, to: address, data: EMPTY }]);
        expect(empty.message).toBe(
          `execution reverted: custom error 'Empty()' (Boom.empty at ${getAddress(address)}, Boom.sol:${lineOf('revert Empty(); }')})`,
        );
      }
      // A send's revert: the mined transaction replayed for the pc of its REVERT.
      const sent = await failure(k, 'eth_sendTransaction', [{ from: A0, to: address, data: FAIL, gas: '0x100000' }]);
      expect(sent.message).toMatch(
        new RegExp(
          `^Error: VM Exception while processing transaction: reverted with custom error 'Nope\\(42, .*\\)' \\(Boom\\.fail at ${getAddress(address)}, Boom\\.sol:${lineOf('revert Nope(')}\\)$`,
        ),
      );
      expect((sent.data as { message: string }).message).toBe(sent.message);
    },
  );
});

describe('an unverified contract', () => {
  it('keeps the raw selector: the return data for a send, "execution reverted" for a call', async () => {
    const k = await explorerKernel();
    kernels.push(k);
    const address = await deploy(k);
    const send = await failure(k, 'eth_sendTransaction', [{ from: A0, to: address, data: EMPTY, gas: '0x100000' }]);
    const selector = iface.getError('Empty')?.selector;
    expect(send.message).toBe(
      `Error: VM Exception while processing transaction: reverted with an unrecognized custom error (return data: ${selector})`,
    );
    const call = await failure(k, 'eth_call', [{ from: A0, to: address, data: EMPTY }]);
    expect(call).toMatchObject({ code: 3, message: 'execution reverted', data: selector });
  });
});
