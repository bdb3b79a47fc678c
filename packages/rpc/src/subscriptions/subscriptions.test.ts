import { readFileSync } from 'node:fs';
import { createKernel, createProvider, type Kernel } from '@ashlar/core';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RpcBlock, type RpcLog, type RpcReceipt, rpcPlugins } from '../index.js';
import type { RpcHeader } from './BlockView.js';
import { newSubscriptionId } from './ids.js';
import type { NotifyingConnection, SubscriptionNotification } from './Subscription.js';
import { SubscriptionsToken } from './SubscriptionService.js';

// ---------------------------------------------------------------------------------------------
// fixtures: a kernel with this package's plugins, the Counter contract, a recording connection

const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const artifacts = JSON.parse(
  readFileSync(new URL('../../../../test/contracts/artifacts.json', import.meta.url), 'utf8'),
) as Record<string, { bytecode: string }>;
const keccak = (signature: string): string =>
  `0x${Buffer.from(keccak_256(new TextEncoder().encode(signature))).toString('hex')}`;
const INCREMENTED = keccak('Incremented(address,uint256)');
const INCREMENT = keccak('increment()').slice(0, 10);

/** One macrotask: a new subscription delivers once its eth_subscribe answer has gone out. */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface TestConnection extends NotifyingConnection {
  readonly sent: SubscriptionNotification[];
  results<T = unknown>(subscription: string): T[];
  close(): void;
}

function testConnection(): TestConnection {
  const sent: SubscriptionNotification[] = [];
  const handlers: (() => void)[] = [];
  return {
    id: 'test',
    sent,
    send: (m) => sent.push(m as SubscriptionNotification),
    onClose: (fn) => handlers.push(fn),
    results: <T>(s: string) => sent.filter((m) => m.params.subscription === s).map((m) => m.params.result as T),
    close: () => {
      for (const fn of handlers.splice(0)) fn();
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: number; message: string };
  }
  throw new Error('expected a rejection');
}

let kernel: Kernel;
let conn: TestConnection;
const rpc = <T>(method: string, params: unknown[] = []) => kernel.request<T>({ method, params });
const over = <T>(method: string, params: unknown[] = [], c: NotifyingConnection = conn) =>
  kernel.request<T>({ method, params }, { connection: c });
const send = (tx: Record<string, string>) => rpc<string>('eth_sendTransaction', [{ from: ACCOUNT0, ...tx }]);

async function deployCounter(): Promise<string> {
  const hash = await send({ data: artifacts.Counter.bytecode });
  return (await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [hash])).contractAddress;
}

const listeners = () => ['block', 'revert', 'pendingTransaction'].map((e) => kernel.events.listenerCount(e as 'block'));

beforeEach(async () => {
  kernel = await createKernel({ plugins: rpcPlugins() });
  conn = testConnection();
});
afterEach(() => kernel.close());

// ---------------------------------------------------------------------------------------------

describe('subscription ids', () => {
  it('are 0x and 32 hex digits, never starting with 0, and unique', () => {
    const ids = new Set(Array.from({ length: 500 }, () => newSubscriptionId()));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(/^0x[1-9a-f][0-9a-f]{31}$/);
  });
});

describe('newHeads', () => {
  it("sends each new block's header in geth's shape, in order", async () => {
    const id = await over<string>('eth_subscribe', ['newHeads']);
    expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    await rpc('evm_mine');
    await send({ to: ACCOUNT1, value: '0x1' });
    await tick();
    const heads = conn.results<RpcHeader>(id);
    expect(heads.map((h) => h.number)).toEqual(['0x1', '0x2']);
    const block = await rpc<RpcBlock>('eth_getBlockByNumber', ['0x2', false]);
    const body = ['transactions', 'uncles', 'size', 'totalDifficulty', 'withdrawals'];
    const header = Object.fromEntries(Object.entries(block).filter(([k]) => !body.includes(k)));
    expect(block.transactions).toHaveLength(1);
    expect(heads[1]).toEqual(header);
    expect(heads[1]).toHaveProperty('hash', block.hash);
    for (const field of body) expect(heads[1]).not.toHaveProperty(field);
  });

  it('holds events that happen before the answer, and delivers them after it', async () => {
    const id = await over<string>('eth_subscribe', ['newHeads']);
    await rpc('evm_mine');
    // Same tick as the answer: nothing sent yet.
    expect(conn.sent).toHaveLength(0);
    await tick();
    expect(conn.results(id)).toHaveLength(1);
  });
});

describe('logs', () => {
  it('sends each matching log once, like eth_getLogs, filtered by address and topics', async () => {
    const counter = await deployCounter();
    const other = await deployCounter();
    const byAddress = await over<string>('eth_subscribe', ['logs', { address: counter }]);
    const byTopic = await over<string>('eth_subscribe', ['logs', { topics: [INCREMENTED, null] }]);
    const none = await over<string>('eth_subscribe', ['logs', { topics: [keccak('Other()')] }]);
    const all = await over<string>('eth_subscribe', ['logs']);
    await send({ to: counter, data: INCREMENT });
    await send({ to: other, data: INCREMENT });
    await send({ to: counter, data: INCREMENT });
    await tick();
    const logs = await rpc<RpcLog[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    const incremented = logs.filter((l) => l.topics[0] === INCREMENTED);
    expect(conn.results(byAddress)).toEqual(incremented.filter((l) => l.address === counter));
    expect(conn.results(byAddress)).toHaveLength(2);
    expect(conn.results(byTopic)).toEqual(incremented);
    expect(conn.results(all)).toEqual(incremented);
    expect(conn.results(none)).toEqual([]);
  });

  it('sends the logs of removed blocks again with removed: true, newest block first', async () => {
    const counter = await deployCounter();
    const head = BigInt(await rpc<string>('eth_blockNumber'));
    const id = await over<string>('eth_subscribe', ['logs', { address: counter }]);
    await send({ to: counter, data: INCREMENT });
    await send({ to: counter, data: INCREMENT });
    await tick();
    const added = conn.results<RpcLog>(id);
    expect(added.map((l) => l.removed)).toEqual([false, false]);
    await kernel.chain.exclusive(() => kernel.chain.revertTo(head));
    const removed = conn.results<RpcLog>(id).slice(2);
    expect(removed).toEqual([...added].reverse().map((l) => ({ ...l, removed: true })));
  });

  it('honours numeric block bounds and refuses pending logs and impossible ranges', async () => {
    const counter = await deployCounter();
    const next = BigInt(await rpc<string>('eth_blockNumber')) + 1n;
    const only = await over<string>('eth_subscribe', [
      'logs',
      { fromBlock: `0x${next.toString(16)}`, toBlock: `0x${next.toString(16)}` },
    ]);
    await send({ to: counter, data: INCREMENT });
    await send({ to: counter, data: INCREMENT });
    await tick();
    expect(conn.results<RpcLog>(only).map((l) => BigInt(l.blockNumber))).toEqual([next]);

    expect(await rejection(over('eth_subscribe', ['logs', { fromBlock: 'pending' }]))).toMatchObject({
      code: -32602,
      message: 'pending logs are not supported',
    });
    expect(await rejection(over('eth_subscribe', ['logs', { fromBlock: '0x5', toBlock: '0x4' }]))).toMatchObject({
      code: -32602,
      message: 'invalid from and to block combination',
    });
    expect(await rejection(over('eth_subscribe', ['logs', { address: '0x12' }]))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 1 \(options\): field "address"/),
    });
    expect(kernel.resolve(SubscriptionsToken).size).toBe(1);
  });
});

describe('newPendingTransactions', () => {
  it('sends hashes, or whole pending transactions when asked', async () => {
    const hashes = await over<string>('eth_subscribe', ['newPendingTransactions']);
    const full = await over<string>('eth_subscribe', ['newPendingTransactions', true]);
    const h1 = await send({ to: ACCOUNT1, value: '0x1' });
    const h2 = await send({ to: ACCOUNT1, value: '0x2' });
    await tick();
    expect(conn.results(hashes)).toEqual([h1, h2]);
    const txs = conn.results<{ hash: string; blockHash: null; value: string; from: string }>(full);
    expect(txs.map((t) => [t.hash, t.blockHash, t.value, t.from])).toEqual([
      [h1, null, '0x1', ACCOUNT0],
      [h2, null, '0x2', ACCOUNT0],
    ]);
    expect(await rejection(over('eth_subscribe', ['newPendingTransactions', 'yes']))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 1 \(options\)/),
    });
  });
});

describe('transactionReceipts', () => {
  it("sends each block's receipts in one notification, or only the named ones", async () => {
    const all = await over<string>('eth_subscribe', ['transactionReceipts']);
    await rpc('evm_setAutomine', [false]);
    const h1 = await send({ to: ACCOUNT1, value: '0x1' });
    const h2 = await send({ to: ACCOUNT1, value: '0x2' });
    const named = await over<string>('eth_subscribe', ['transactionReceipts', { transactionHashes: [h2] }]);
    await rpc('evm_mine');
    await rpc('evm_mine');
    await tick();
    const blockReceipts = await rpc<RpcReceipt[]>('eth_getBlockReceipts', ['0x1']);
    expect(blockReceipts.map((r) => r.transactionHash).sort()).toEqual([h1, h2].sort());
    // One notification for the block with transactions, none for the empty block.
    expect(conn.results(all)).toEqual([blockReceipts]);
    expect(conn.results(named)).toEqual([blockReceipts.filter((r) => r.transactionHash === h2)]);
  });

  it("refuses more than geth's 200 hashes", async () => {
    const hashes = Array.from({ length: 201 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    const err = await rejection(over('eth_subscribe', ['transactionReceipts', { transactionHashes: hashes }]));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/exceed max number of transaction hashes .* \(201 > 200\)/);
  });
});

describe('syncing', () => {
  it('is accepted and, as geth on a synced node, never notifies', async () => {
    const id = await over<string>('eth_subscribe', ['syncing']);
    expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    await rpc('evm_mine');
    await tick();
    expect(conn.results(id)).toEqual([]);
  });
});

describe('errors', () => {
  it('answers as geth: no notifications without a connection, unknown kinds, unknown ids', async () => {
    expect(await rejection(rpc('eth_subscribe', ['newHeads']))).toEqual(
      expect.objectContaining({ code: -32601, message: 'notifications not supported' }),
    );
    expect(await rejection(over('eth_subscribe', ['newBlocks']))).toMatchObject({
      code: -32601,
      message: 'no "newBlocks" subscription in eth namespace',
    });
    expect(await rejection(over('eth_subscribe', []))).toMatchObject({ code: -32602 });
    expect(await rejection(over('eth_unsubscribe', ['0x1234']))).toMatchObject({
      code: -32000,
      message: 'subscription not found',
    });
  });
});

describe('lifecycle', () => {
  it('unsubscribe stops one subscription; only its own connection may do it', async () => {
    const stranger = testConnection();
    const a = await over<string>('eth_subscribe', ['newHeads']);
    const b = await over<string>('eth_subscribe', ['newHeads']);
    expect(await rejection(over('eth_unsubscribe', [a], stranger))).toMatchObject({ code: -32000 });
    expect(await over('eth_unsubscribe', [a.toUpperCase().replace('0X', '0x')])).toBe(true);
    expect(await rejection(over('eth_unsubscribe', [a]))).toMatchObject({ message: 'subscription not found' });
    await rpc('evm_mine');
    await tick();
    expect(conn.results(a)).toEqual([]);
    expect(conn.results(b)).toHaveLength(1);
  });

  it('a closing connection ends its subscriptions and leaves no kernel listener behind', async () => {
    const before = listeners();
    const other = testConnection();
    await over('eth_subscribe', ['newHeads']);
    await over('eth_subscribe', ['logs', {}]);
    await over('eth_subscribe', ['newPendingTransactions']);
    const kept = await over<string>('eth_subscribe', ['newHeads'], other);
    expect(listeners()).toEqual(before.map((n) => n + 1));
    conn.close();
    expect(kernel.resolve(SubscriptionsToken).size).toBe(1);
    await rpc('evm_mine');
    await tick();
    expect(conn.sent).toEqual([]);
    expect(other.results(kept)).toHaveLength(1);
    other.close();
    expect(kernel.resolve(SubscriptionsToken).size).toBe(0);
    expect(listeners()).toEqual(before);
  });

  it('a connection whose send throws does not stop the chain or the other subscribers', async () => {
    const broken: NotifyingConnection = {
      id: 'broken',
      send: () => {
        throw new Error('socket gone');
      },
      onClose: () => {},
    };
    await over('eth_subscribe', ['newHeads'], broken);
    const id = await over<string>('eth_subscribe', ['newHeads']);
    await tick();
    await rpc('evm_mine');
    expect(conn.results(id)).toHaveLength(1);
    expect(await rpc('eth_blockNumber')).toBe('0x1');
  });

  it('the in-process provider receives notifications as EIP-1193 message events', async () => {
    const provider = createProvider(kernel);
    const messages: { type: string; data: unknown }[] = [];
    provider.on('message', (m) => messages.push(m));
    const id = await provider.request<string>({ method: 'eth_subscribe', params: ['newHeads'] });
    await rpc('evm_mine');
    await tick();
    expect(messages).toEqual([
      { type: 'eth_subscription', data: { subscription: id, result: expect.objectContaining({ number: '0x1' }) } },
    ]);
    expect(await provider.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true);
  });

  it('the kernel closing ends every subscription', async () => {
    await over('eth_subscribe', ['newHeads']);
    await over('eth_subscribe', ['logs']);
    const service = kernel.resolve(SubscriptionsToken);
    await kernel.close();
    expect(service.size).toBe(0);
  });
});
