/**
 * eth_createAccessList as geth builds it (eth/tracers/logger/access_list_tracer.go): sender,
 * recipient and precompiles are left out as bare addresses, but every SLOAD/SSTORE slot is kept
 * whatever contract it is in, in first-touch order. So an ERC-20 `transfer` sent to the token
 * lists the token with its two balance slots, as geth and Anvil answer it. The slots are derived
 * here from Solidity's storage layout (test/contracts/Token.sol: balanceOf is slot 3), not from
 * our output.
 */
import { type Kernel, createKernel } from '@ashlar/core';
import { rpcPlugins } from '@ashlar/rpc';
import { AbiCoder, Interface, keccak256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';

const BALANCE_OF_SLOT = 3n;
const coder = AbiCoder.defaultAbiCoder();
const balanceSlot = (holder: string) => keccak256(coder.encode(['address', 'uint256'], [holder, BALANCE_OF_SLOT]));

let kernel: Kernel;
let token: string;
const from = DEV_ACCOUNTS[0].address.toLowerCase();
const to = DEV_ACCOUNTS[1].address.toLowerCase();
const rpc = <T>(method: string, params: unknown[]) => kernel.request<T>({ method, params });

beforeAll(async () => {
  kernel = await createKernel({ plugins: rpcPlugins() });
  const { abi, bytecode } = loadArtifact('Token');
  const args = new Interface(abi).encodeDeploy(['Token', 'TOK', 10n ** 24n]).slice(2);
  const hash = await rpc<string>('eth_sendTransaction', [{ from, data: `${bytecode}${args}` }]);
  const receipt = await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [hash]);
  token = receipt.contractAddress;
});
afterAll(async () => {
  await kernel?.close();
});

describe('eth_createAccessList', () => {
  it('lists the token of an ERC-20 transfer with the sender’s and the recipient’s balance slots', async () => {
    const data = new Interface(loadArtifact('Token').abi).encodeFunctionData('transfer', [to, 5n]);
    const out = await rpc<{ accessList: { address: string; storageKeys: string[] }[]; gasUsed: string }>(
      'eth_createAccessList',
      [{ from, to: token, data }],
    );
    expect(out.accessList).toEqual([{ address: token, storageKeys: [balanceSlot(from), balanceSlot(to)] }]);
    // The list warms both slots: the transfer sent with it uses the gas it reports.
    const withList = await rpc<string>('eth_estimateGas', [{ from, to: token, data, accessList: out.accessList }]);
    expect(BigInt(out.gasUsed)).toBeLessThanOrEqual(BigInt(withList));
  });

  it('still leaves out a plain transfer’s sender and recipient', async () => {
    const out = await rpc<{ accessList: unknown[] }>('eth_createAccessList', [{ from, to, value: '0x1' }]);
    expect(out.accessList).toEqual([]);
  });
});
