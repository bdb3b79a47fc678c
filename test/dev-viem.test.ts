/**
 * The dev methods through HTTP with viem's test client, once in `hardhat` mode and once in
 * `anvil` mode: the same actions must work whichever spelling the client uses.
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  parseGwei,
  publicActions,
  walletActions,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';
import { type TestNode, startNode } from './helpers/node.js';

const chain = defineChain({
  id: 31337,
  name: 'Ashlar',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});

const WHALE: Address = '0x00000000000000000000000000000000000000a1';
const TARGET: Address = '0x00000000000000000000000000000000000000a2';
const dev0 = DEV_ACCOUNTS[0].address;
// runtime code: return storage slot 0
const RETURN_SLOT0 = '0x60005460005260206000f3';

for (const mode of ['hardhat', 'anvil'] as const) {
  describe(`viem test client, ${mode} mode, over HTTP`, () => {
    let node: TestNode;
    let test: ReturnType<typeof makeClient>;

    function makeClient(url: string) {
      return createTestClient({ mode, chain, transport: http(url), cacheTime: 0 })
        .extend(publicActions)
        .extend(walletActions);
    }

    beforeAll(async () => {
      node = await startNode();
      test = makeClient(node.url);
    });
    afterAll(() => node.close());

    it('mine: blocks and interval', async () => {
      const start = await test.getBlockNumber();
      await test.mine({ blocks: 3 });
      expect(await test.getBlockNumber()).toBe(start + 3n);
      const before = await test.getBlock();
      await test.mine({ blocks: 100, interval: 7 });
      const after = await test.getBlock();
      expect(after.number).toBe(before.number + 100n);
      // the first block is mined as evm_mine would, the other 99 follow it 7 s apart (Hardhat)
      const first = await test.getBlock({ blockNumber: before.number + 1n });
      expect(after.timestamp - first.timestamp).toBe(99n * 7n);
      const mid = await test.getBlock({ blockNumber: before.number + 50n });
      const next = await test.getBlock({ blockNumber: before.number + 51n });
      expect(next.parentHash).toBe(mid.hash);
    });

    it('setBalance, setCode, setStorageAt, setNonce', async () => {
      await test.setBalance({ address: TARGET, value: parseEther('3') });
      expect(await test.getBalance({ address: TARGET })).toBe(parseEther('3'));
      await test.setCode({ address: TARGET, bytecode: RETURN_SLOT0 });
      expect(await test.getCode({ address: TARGET })).toBe(RETURN_SLOT0);
      const value = `0x${'00'.repeat(31)}2a` as const;
      await test.setStorageAt({ address: TARGET, index: 0, value });
      expect(await test.getStorageAt({ address: TARGET, slot: '0x0' })).toBe(value);
      expect((await test.call({ to: TARGET })).data).toBe(value);
      await test.setNonce({ address: TARGET, nonce: 9 });
      expect(await test.getTransactionCount({ address: TARGET })).toBe(9);
    });

    it('impersonateAccount + sendUnsignedTransaction, eth_sendTransaction from the impersonated account', async () => {
      await test.setBalance({ address: WHALE, value: parseEther('10') });
      await test.impersonateAccount({ address: WHALE });
      const hash = await test.sendUnsignedTransaction({ from: WHALE, to: dev0, value: parseEther('1') });
      const receipt = await test.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      expect(receipt.from).toBe(WHALE);
      // a JSON-RPC account: viem sends eth_sendTransaction and the node sends it unsigned
      const wallet = createWalletClient({ chain, transport: http(node.url), account: WHALE });
      const hash2 = await wallet.sendTransaction({ to: dev0, value: 1n });
      const tx = await test.getTransaction({ hash: hash2 });
      expect(tx.from).toBe(WHALE);
      expect((await test.waitForTransactionReceipt({ hash: hash2 })).status).toBe('success');
      await test.stopImpersonatingAccount({ address: WHALE });
      await expect(wallet.sendTransaction({ to: dev0, value: 1n })).rejects.toThrow(/unknown account/);
    });

    it('snapshot / revert', async () => {
      const id = await test.snapshot();
      const number = await test.getBlockNumber();
      const balance = await test.getBalance({ address: TARGET });
      await test.mine({ blocks: 5 });
      await test.setBalance({ address: TARGET, value: 1n });
      await test.revert({ id });
      expect(await test.getBlockNumber()).toBe(number);
      expect(await test.getBalance({ address: TARGET })).toBe(balance);
    });

    it('increaseTime and setNextBlockTimestamp', async () => {
      const now = BigInt(Math.floor(Date.now() / 1000));
      await test.increaseTime({ seconds: 86_400 });
      await test.mine({ blocks: 1 });
      expect((await test.getBlock()).timestamp).toBeGreaterThanOrEqual(now + 86_400n);
      const t = (await test.getBlock()).timestamp + 1000n;
      await test.setNextBlockTimestamp({ timestamp: t });
      await test.mine({ blocks: 1 });
      expect((await test.getBlock()).timestamp).toBe(t);
    });

    it('setBlockGasLimit and setNextBlockBaseFeePerGas', async () => {
      await test.setBlockGasLimit({ gasLimit: 20_000_000n });
      await test.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('2') });
      await test.mine({ blocks: 1 });
      const block = await test.getBlock();
      expect(block.gasLimit).toBe(20_000_000n);
      expect(block.baseFeePerGas).toBe(parseGwei('2'));
    });

    it('setAutomine, dropTransaction and the txpool', async () => {
      await test.setAutomine(false);
      expect(await test.getAutomine()).toBe(false);
      const hash = await test.sendTransaction({ account: dev0, to: TARGET, value: 1n });
      expect(await test.getTxpoolStatus()).toEqual({ pending: 1, queued: 0 });
      const content = await test.getTxpoolContent();
      expect(Object.values(content.pending)[0]).toBeDefined();
      await test.dropTransaction({ hash });
      expect(await test.getTxpoolStatus()).toEqual({ pending: 0, queued: 0 });
      const kept = await test.sendTransaction({ account: dev0, to: TARGET, value: 2n });
      await test.setAutomine(true); // turning automine on mines what waits
      expect((await test.getTransactionReceipt({ hash: kept })).status).toBe('success');
    });

    it('setIntervalMining', async () => {
      await test.setAutomine(false);
      // hardhat mode sends ms (interval * 1000), anvil mode seconds: 1 s either way
      await test.setIntervalMining({ interval: 1 });
      expect(node.kernel.miner.blockTime).toBe(1);
      await test.setIntervalMining({ interval: 0 });
      expect(node.kernel.miner.blockTime).toBe(0);
      await test.setAutomine(true);
    });

    it('setCoinbase and setMinGasPrice', async () => {
      await test.setCoinbase({ address: TARGET });
      await test.mine({ blocks: 1 });
      expect((await test.getBlock()).miner).toBe(TARGET);
      await test.setMinGasPrice({ gasPrice: 0n });
    });

    it('dumpState / loadState', async () => {
      const state = await test.dumpState();
      await test.setCode({ address: TARGET, bytecode: '0x' });
      await test.loadState({ state });
      expect(await test.getCode({ address: TARGET })).toBe(RETURN_SLOT0);
    });

    it('reset', async () => {
      await test.reset();
      expect(await test.getBlockNumber()).toBe(0n);
      expect(await test.getBalance({ address: WHALE })).toBe(0n);
    });
  });
}

it('a public client sees the same chain the test client moved', async () => {
  const node = await startNode();
  try {
    const test = createTestClient({ mode: 'hardhat', chain, transport: http(node.url) });
    const pub = createPublicClient({ chain, transport: http(node.url), cacheTime: 0 });
    await test.mine({ blocks: 1_000_000 });
    expect(await pub.getBlockNumber()).toBe(1_000_000n);
  } finally {
    await node.close();
  }
});
