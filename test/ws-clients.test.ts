/**
 * Real clients over WebSocket, used the way their users use them: viem's `webSocket`
 * transport (watchBlocks, watchContractEvent), ethers' WebSocketProvider (contract.on) and
 * web3.js subscriptions (newBlockHeaders, contract.events),
 * against the `ashlar` server and against a node mounted on express. Every event of a run
 * must arrive exactly once, in order.
 *
 * "Exactly once": after the run, one more event is made as a marker. A duplicate of an
 * earlier event would reach the client before the marker, and break the equality.
 */
import { Contract, type ContractEventPayload, WebSocketProvider } from 'ethers';
import { type Block, createPublicClient, defineChain, type Hex, webSocket } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractAbi, Web3, type WebSocketProvider as Web3WebSocketProvider } from 'web3';
import {
  counterArtifact,
  incrementedAbi,
  deployCounter,
  increment,
  incrementRun,
  SERVED_NODES,
  type ServedNode,
  subscriptionCount,
  untilExactly,
  untilInstalled,
  untilLength,
} from './ws-helpers.js';

const RUN = 5;

describe.each(SERVED_NODES)('over WebSocket, %s', (_name, start) => {
  let node: ServedNode;
  beforeAll(async () => {
    node = await start();
  });
  afterAll(() => node.close());

  function viemClient() {
    const chain = defineChain({
      id: 31337,
      name: 'Ashlar',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [node.url], webSocket: [node.wsUrl] } },
    });
    return createPublicClient({ chain, transport: webSocket(node.wsUrl) });
  }

  it('viem watchBlocks receives every block once, in order', async () => {
    const client = viemClient();
    const blocks: bigint[] = [];
    const before = subscriptionCount(node.kernel);
    const unwatch = client.watchBlocks({ onBlock: (b: Block) => blocks.push(b.number as bigint) });
    try {
      await untilInstalled(() => subscriptionCount(node.kernel), before + 1);
      const head = await client.getBlockNumber();
      const counter = await deployCounter(node.kernel);
      await incrementRun(node.kernel, counter, RUN);
      await untilLength(blocks, RUN + 1);
      await increment(node.kernel, counter);
      await untilLength(blocks, RUN + 2);
      expect(blocks).toEqual(Array.from({ length: RUN + 2 }, (_, i) => head + 1n + BigInt(i)));
    } finally {
      unwatch();
      (await client.transport.getRpcClient()).close();
    }
    // The subscription ended with the client's connection.
    await untilExactly(() => subscriptionCount(node.kernel), before);
  });

  it('viem watchContractEvent receives every Incremented event once, in order', async () => {
    const client = viemClient();
    const counter = await deployCounter(node.kernel);
    const seen: { hash: Hex; value: bigint }[] = [];
    const before = subscriptionCount(node.kernel);
    const unwatch = client.watchContractEvent({
      address: counter,
      abi: incrementedAbi,
      eventName: 'Incremented',
      onLogs: (logs) => {
        for (const log of logs) seen.push({ hash: log.transactionHash, value: log.args.newValue ?? -1n });
      },
    });
    try {
      await untilInstalled(() => subscriptionCount(node.kernel), before + 1);
      const hashes = await incrementRun(node.kernel, counter, RUN);
      await untilLength(seen, RUN);
      hashes.push(await increment(node.kernel, counter));
      await untilLength(seen, RUN + 1);
      expect(seen).toEqual(hashes.map((hash, i) => ({ hash, value: BigInt(i + 1) })));
    } finally {
      unwatch();
      (await client.transport.getRpcClient()).close();
    }
    // The subscription ended with the client's connection.
    await untilExactly(() => subscriptionCount(node.kernel), before);
  });

  it('ethers WebSocketProvider contract.on receives every event once, in order', async () => {
    const provider = new WebSocketProvider(node.wsUrl, 31337);
    const counterAddress = await deployCounter(node.kernel);
    const contract = new Contract(counterAddress, counterArtifact.abi, provider);
    const seen: { hash: string; value: bigint }[] = [];
    const before = subscriptionCount(node.kernel);
    await contract.on('Incremented', (_by: string, newValue: bigint, event: ContractEventPayload) => {
      seen.push({ hash: event.log.transactionHash, value: newValue });
    });
    try {
      await untilInstalled(() => subscriptionCount(node.kernel), before + 1);
      const hashes: string[] = await incrementRun(node.kernel, counterAddress, RUN);
      await untilLength(seen, RUN);
      hashes.push(await increment(node.kernel, counterAddress));
      await untilLength(seen, RUN + 1);
      expect(seen).toEqual(hashes.map((hash, i) => ({ hash, value: BigInt(i + 1) })));
    } finally {
      await contract.removeAllListeners();
      await provider.destroy();
    }
    // The subscription ended with the client's connection.
    await untilExactly(() => subscriptionCount(node.kernel), before);
  });

  it('web3.js subscriptions receive every header and every contract event once, in order', async () => {
    const web3 = new Web3(node.wsUrl);
    const counterAddress = await deployCounter(node.kernel);
    const contract = new web3.eth.Contract(counterArtifact.abi as unknown as ContractAbi, counterAddress);
    const heads: bigint[] = [];
    const events: string[] = [];
    const before = subscriptionCount(node.kernel);
    const headers = await web3.eth.subscribe('newBlockHeaders');
    headers.on('data', (h) => {
      heads.push(BigInt(h.number ?? -1));
    });
    const incremented = contract.events.Incremented();
    incremented.on('data', (e) => {
      events.push(e.transactionHash ?? '');
    });
    try {
      await untilInstalled(() => subscriptionCount(node.kernel), before + 2);
      // The node holding the subscription is not enough for web3.js: it routes a notification
      // only once it has stored the id, a few promise callbacks after the eth_subscribe answer
      // is read, and drops frames read together with that answer (geth also sends events right
      // behind it; ethers buffers them, viem stores the id at once). This client shares the
      // node's event loop and incrementRun never yields to it, so until it has read the answer,
      // the answer and every event of the run would reach it in one read.
      await untilInstalled(() => (contract.subscriptionManager.subscriptions.has(incremented.id ?? '') ? 1 : 0), 1);
      const head = node.kernel.chain.head.number;
      const hashes: string[] = await incrementRun(node.kernel, counterAddress, RUN);
      await untilLength(events, RUN);
      hashes.push(await increment(node.kernel, counterAddress));
      await untilLength(events, RUN + 1);
      await untilLength(heads, RUN + 1);
      expect(events).toEqual(hashes);
      expect(heads).toEqual(hashes.map((_, i) => head + 1n + BigInt(i)));
    } finally {
      await headers.unsubscribe();
      await incremented.unsubscribe();
      (web3.currentProvider as Web3WebSocketProvider).disconnect();
    }
    await untilExactly(() => subscriptionCount(node.kernel), before);
  });
});
