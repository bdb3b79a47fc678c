/**
 * The fixture of the example suite: a fresh in-process chain with a deployed ERC-20 and 100
 * holders, reached through viem's custom() transport over Ashlar's EIP-1193 provider.
 */
import { readFileSync } from 'node:fs';
import { createProvider } from '@ashlar/core';
import { createNode } from 'ashlar';
import {
  type Abi,
  type Address,
  type Hex,
  createTestClient,
  custom,
  defineChain,
  getContract,
  parseEther,
  publicActions,
  walletActions,
} from 'viem';

const artifacts = JSON.parse(
  readFileSync(new URL('../../test/contracts/artifacts.json', import.meta.url), 'utf8'),
) as Record<string, { abi: Abi; bytecode: Hex }>;
export const { abi: tokenAbi, bytecode: tokenBytecode } = artifacts.Token;

export const chain = defineChain({
  id: 31337,
  name: 'Ashlar in-process',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

export const HOLDERS = 100;
export const HOLDER_BALANCE = parseEther('10');

/** A holder address of the fixture: 0x…1000 + i. */
export const holder = (i: number): Address => `0x${(0x1000 + i).toString(16).padStart(40, '0')}`;

/** One in-process node and the clients a test suite uses on it. */
export async function startChain() {
  const kernel = await createNode();
  const provider = createProvider(kernel);
  const client = createTestClient({ chain, mode: 'hardhat', transport: custom(provider), cacheTime: 0 })
    .extend(publicActions)
    .extend(walletActions);
  const [owner, alice, bob] = await client.getAddresses();
  return { kernel, provider, client, owner, alice, bob };
}

export type Chain = Awaited<ReturnType<typeof startChain>>;

/** Deploys the token (1,000,000 TOK to `owner`) and pays 100 holders from it. */
export async function deployToken({ client, owner }: Chain) {
  const hash = await client.deployContract({
    abi: tokenAbi,
    bytecode: tokenBytecode,
    account: owner,
    args: ['Token', 'TOK', parseEther('1000000')],
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  const address = receipt.contractAddress as Address;
  const token = getContract({ address, abi: tokenAbi, client });
  for (let i = 0; i < HOLDERS; i++) {
    await client.writeContract({
      address,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [holder(i), HOLDER_BALANCE],
      account: owner,
    });
  }
  return { address, token };
}
