/**
 * The in-process EIP-1193 provider (createProvider from @ashlar/core) with viem's `custom()`
 * transport: watchBlocks and watchContractEvent (viem polls a custom transport, through
 * eth_newFilter for events), and eth_subscribe notifications as EIP-1193 `message` events.
 * No server, no socket: everything runs through the kernel's dispatcher.
 */
import { createProvider, type Eip1193Provider, type Kernel } from '@ashlar/core';
import { createNode } from 'ashlar';
import { createPublicClient, custom, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  incrementedAbi,
  deployCounter,
  filterCount,
  increment,
  incrementRun,
  subscriptionCount,
  untilExactly,
  untilInstalled,
  untilLength,
} from './ws-helpers.js';

const RUN = 5;

describe('the in-process provider with viem custom()', () => {
  let kernel: Kernel;
  let provider: Eip1193Provider;
  beforeAll(async () => {
    kernel = await createNode();
    provider = createProvider(kernel);
  });
  afterAll(() => kernel.close());

  const client = () => createPublicClient({ transport: custom(provider), pollingInterval: 10 });

  it('watchBlocks receives every block once, in order', async () => {
    const blocks: bigint[] = [];
    const head = await client().getBlockNumber();
    const unwatch = client().watchBlocks({
      // A polling client may see several blocks per poll: ask for the ones in between too.
      emitMissed: true,
      onBlock: (b) => blocks.push(b.number),
    });
    try {
      await untilLength(blocks, 1);
      const counter = await deployCounter(kernel);
      await incrementRun(kernel, counter, RUN);
      const last = kernel.chain.head.number;
      await untilLength(blocks, Number(last - blocks[0]) + 1);
      await increment(kernel, counter);
      await untilLength(blocks, Number(last - blocks[0]) + 2);
      expect(blocks[0]).toBeGreaterThanOrEqual(head);
      expect(blocks).toEqual(blocks.map((_, i) => blocks[0] + BigInt(i)));
      expect(blocks.at(-1)).toBe(last + 1n);
    } finally {
      unwatch();
    }
  });

  it('watchContractEvent receives every event once, in order, through a polling filter', async () => {
    const counter = await deployCounter(kernel);
    const seen: Hex[] = [];
    const before = filterCount(kernel);
    const unwatch = client().watchContractEvent({
      address: counter,
      abi: incrementedAbi,
      eventName: 'Incremented',
      onLogs: (logs) => {
        for (const log of logs) seen.push(log.transactionHash);
      },
    });
    try {
      await untilInstalled(() => filterCount(kernel), before + 1);
      const hashes = await incrementRun(kernel, counter, RUN);
      await untilLength(seen, RUN);
      hashes.push(await increment(kernel, counter));
      await untilLength(seen, RUN + 1);
      expect(seen).toEqual(hashes);
    } finally {
      unwatch();
    }
    // viem uninstalls its filter on unwatch.
    await untilExactly(() => filterCount(kernel), before);
  });

  it('eth_subscribe through the client notifies as EIP-1193 message events, each once', async () => {
    const counter = await deployCounter(kernel);
    const messages: { type: string; data: { subscription: string; result: { transactionHash: Hex } } }[] = [];
    const onMessage = (m: { type: string; data: unknown }) => messages.push(m as (typeof messages)[number]);
    provider.on('message', onMessage);
    const before = subscriptionCount(kernel);
    const id = await client().request({
      method: 'eth_subscribe' as never,
      params: ['logs', { address: counter }] as never,
    });
    try {
      expect(subscriptionCount(kernel)).toBe(before + 1);
      const hashes = await incrementRun(kernel, counter, RUN);
      await untilLength(messages, RUN);
      hashes.push(await increment(kernel, counter));
      await untilLength(messages, RUN + 1);
      expect(messages.map((m) => m.type)).toEqual(hashes.map(() => 'eth_subscription'));
      expect(messages.map((m) => m.data.subscription)).toEqual(hashes.map(() => id));
      expect(messages.map((m) => m.data.result.transactionHash)).toEqual(hashes);
    } finally {
      provider.off('message', onMessage);
      await provider.request({ method: 'eth_unsubscribe', params: [id] });
    }
    expect(subscriptionCount(kernel)).toBe(before);
  });
});
