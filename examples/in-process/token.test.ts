/**
 * A Hardhat-style suite running in-process: the fixture is deployed once and every test starts
 * from its snapshot. Moving a Hardhat suite over means changing the setup lines only: the
 * provider comes from createProvider(await createNode()) instead of hre.network.provider.
 */
import { parseEther } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { snapshotFixture } from './fixture.js';
import { type Chain, HOLDERS, HOLDER_BALANCE, deployToken, holder, startChain, tokenAbi } from './tokenFixture.js';

let chain: Chain;
let fixture: () => Promise<Awaited<ReturnType<typeof deployToken>>>;
let token: Awaited<ReturnType<typeof deployToken>>;

beforeAll(async () => {
  chain = await startChain();
  fixture = snapshotFixture(chain.provider, () => deployToken(chain));
});
afterAll(() => chain.kernel.close());
beforeEach(async () => {
  token = await fixture();
});

describe('Token', () => {
  it('has paid every holder', async () => {
    for (const i of [0, 42, HOLDERS - 1]) expect(await token.token.read.balanceOf([holder(i)])).toBe(HOLDER_BALANCE);
    const rest = parseEther('1000000') - HOLDER_BALANCE * BigInt(HOLDERS);
    expect(await token.token.read.balanceOf([chain.owner])).toBe(rest);
  });

  it('transfers between accounts', async () => {
    const { client, owner, alice } = chain;
    const hash = await client.writeContract({
      address: token.address,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [alice, 5n],
      account: owner,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(await token.token.read.balanceOf([alice])).toBe(5n);
  });

  it('starts from the fixture again: the previous test left nothing behind', async () => {
    expect(await token.token.read.balanceOf([chain.alice])).toBe(0n);
  });

  it('reverts a transfer above the balance', async () => {
    const { client, alice, bob } = chain;
    const request = {
      address: token.address,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [bob, 1n],
      account: alice,
    } as const;
    await expect(client.simulateContract(request)).rejects.toThrow('Token: insufficient balance');
    // Sent anyway, it is mined as a failed transaction, and the send answers the revert as
    // Hardhat does: an error whose data carries the transaction's hash.
    const err = await client.writeContract(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(err)).toContain('Token: insufficient balance');
    const hash = txHashOf(err);
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('reverted');
  });

  it('lets a holder send as an impersonated account', async () => {
    const { client, bob } = chain;
    const from = holder(7);
    await client.setBalance({ address: from, value: parseEther('1') });
    await client.impersonateAccount({ address: from });
    const hash = await client.writeContract({
      address: token.address,
      abi: tokenAbi,
      functionName: 'transfer',
      args: [bob, 3n],
      account: from,
    });
    expect((await client.waitForTransactionReceipt({ hash })).from).toBe(from);
    expect(await token.token.read.balanceOf([bob])).toBe(3n);
    await client.stopImpersonatingAccount({ address: from });
  });

  it('travels in time (as hardhat-network-helpers time.increase does)', async () => {
    const { client } = chain;
    const before = await client.getBlock();
    await client.setNextBlockTimestamp({ timestamp: before.timestamp + 30n * 86_400n });
    await client.mine({ blocks: 1 });
    const later = await client.getBlock();
    expect(later.timestamp - before.timestamp).toBe(30n * 86_400n);
  });

  it('is back in the present after the time travel of the previous test', async () => {
    const block = await chain.client.getBlock();
    expect(block.timestamp).toBeLessThan(BigInt(Math.floor(Date.now() / 1000)) + 86_400n);
  });

  it('mines 10,000 blocks at once', async () => {
    const { client } = chain;
    const start = await client.getBlockNumber();
    await client.mine({ blocks: 10_000 });
    expect(await client.getBlockNumber()).toBe(start + 10_000n);
    expect(await token.token.read.balanceOf([holder(0)])).toBe(HOLDER_BALANCE);
  });
});

/** The `data.txHash` a failed send's JSON-RPC error carries, found along the error's causes. */
function txHashOf(err: unknown): `0x${string}` {
  for (let e = err as { cause?: unknown; data?: { txHash?: string } } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.data?.txHash === 'string') return e.data.txHash as `0x${string}`;
  }
  throw new Error('no txHash in the error');
}
