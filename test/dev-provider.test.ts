/**
 * The dev features through the in-process EIP-1193 provider as ethers' BrowserProvider uses it:
 * dev-key signing (personal_sign, eth_signTypedData_v4), impersonated signers, and snapshots
 * that take back blocks, the pool and time.
 */
import { createProvider } from '@ashlar/core';
import { createNode } from 'ashlar';
import {
  BrowserProvider,
  Contract,
  ContractFactory,
  type Eip1193Provider,
  JsonRpcSigner,
  parseEther,
  verifyMessage,
  verifyTypedData,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';

let kernel: Awaited<ReturnType<typeof createNode>>;
let provider: BrowserProvider;
const token = loadArtifact('Token');
const WHALE = '0x00000000000000000000000000000000000000b1';

beforeAll(async () => {
  kernel = await createNode();
  provider = new BrowserProvider(createProvider(kernel) as unknown as Eip1193Provider, 31337, { cacheTimeout: -1 });
});
afterAll(() => kernel.close());

describe('ethers over the in-process provider', () => {
  it('signs messages and typed data with the dev keys', async () => {
    const signer = await provider.getSigner(0);
    const sig = await signer.signMessage('hello');
    expect(verifyMessage('hello', sig)).toBe(signer.address);
    const domain = { name: 'Ashlar', version: '1', chainId: 31337 };
    const types = {
      Vote: [
        { name: 'proposal', type: 'uint256' },
        { name: 'support', type: 'bool' },
      ],
    };
    const value = { proposal: 12345678901234567890n, support: true };
    const typedSig = await signer.signTypedData(domain, types, value);
    expect(verifyTypedData(domain, types, value, typedSig)).toBe(signer.address);
  });

  it('sends contract calls from an impersonated holder through a JsonRpcSigner', async () => {
    const owner = await provider.getSigner(0);
    const factory = new ContractFactory(token.abi, token.bytecode, owner);
    const deployed = await factory.deploy('Token', 'TOK', parseEther('100'));
    await deployed.waitForDeployment();
    const address = await deployed.getAddress();
    const asOwner = new Contract(address, token.abi, owner);
    await (await asOwner.getFunction('transfer')(WHALE, parseEther('10'))).wait();

    await provider.send('hardhat_setBalance', [WHALE, '0xde0b6b3a7640000']);
    await provider.send('hardhat_impersonateAccount', [WHALE]);
    // as hardhat-ethers' getImpersonatedSigner: the address is no node account, so no getSigner()
    const whale = new JsonRpcSigner(provider, WHALE);
    const asWhale = new Contract(address, token.abi, whale);
    const receipt = await (await asWhale.getFunction('transfer')(owner.address, parseEther('4'))).wait();
    expect(receipt?.from.toLowerCase()).toBe(WHALE);
    expect(await asOwner.getFunction('balanceOf')(WHALE)).toBe(parseEther('6'));
  });

  it('snapshot/revert takes back blocks, the pool and time', async () => {
    const signer = await provider.getSigner(1);
    const id = await provider.send('evm_snapshot', []);
    const start = await provider.getBlock('latest');
    const now = Math.floor(Date.now() / 1000);
    await provider.send('evm_setAutomine', [false]);
    const pending = await signer.sendTransaction({ to: WHALE, value: 1n });
    await provider.send('evm_increaseTime', [7 * 86_400]);
    await provider.send('evm_mine', []);
    await provider.send('evm_setAutomine', [true]);
    expect((await provider.getBlock('latest'))?.timestamp).toBeGreaterThanOrEqual(now + 7 * 86_400);

    expect(await provider.send('evm_revert', [id])).toBe(true);
    expect(await provider.getBlockNumber()).toBe(start?.number);
    expect(await provider.getTransactionReceipt(pending.hash)).toBeNull();
    // the pool is as it was at the snapshot (empty), and the clock is back in the present
    expect(await provider.send('txpool_status', [])).toEqual({ pending: '0x0', queued: '0x0' });
    await provider.send('evm_mine', []);
    expect((await provider.getBlock('latest'))?.timestamp).toBeLessThan(Math.floor(Date.now() / 1000) + 86_400);
  });
});
