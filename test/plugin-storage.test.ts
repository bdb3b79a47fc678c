/**
 * Plugin storage (issue #22, item 3): ctx.sublevel gives a plugin tables of its own, named under
 * its plugin name and fenced from the chain's keys; onBlock writes land in the block's own
 * atomic batch and onRemove writes undo them in evm_revert's batch. On memory and LevelDB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Kernel,
  type Plugin,
  type PluginStore,
  type StoragePort,
  createKernel,
  definePlugin,
  memoryStorage,
} from '@ashlar/core';
import { rpcPlugins } from '@ashlar/rpc';
import { levelStorage } from '@ashlar/storage-level';
import { bytesToHex } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

const [A, B] = DEV_ACCOUNTS.map((a) => a.address.toLowerCase());

interface BlockNote {
  hash: string;
  txs: number;
}

/** Keys in block order as text: a zero-padded number sorts as the number does. */
const keyOf = (n: bigint) => n.toString().padStart(20, '0');

/** Records each block's hash and transaction count in the block's batch; undoes it on revert. */
function blockNotes(found: { store?: PluginStore<string, BlockNote> }): Plugin<unknown> {
  return definePlugin({
    name: 'acme:blocks',
    register(ctx) {
      const store = ctx.sublevel<string, BlockNote>('byNumber');
      found.store = store;
      store.onBlock((b) => [
        { type: 'put', key: keyOf(b.number), value: { hash: bytesToHex(b.hash), txs: b.block.transactions.length } },
      ]);
      store.onRemove((b) => [{ type: 'del', key: keyOf(b.number) }]);
    },
  }) as Plugin<unknown>;
}

const dirs: string[] = [];
const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((k) => k.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const stores: [string, () => StoragePort][] = [
  ['memory', () => memoryStorage()],
  [
    'LevelDB',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'ashlar-plugin-store-'));
      dirs.push(dir);
      return levelStorage({ path: join(dir, 'chain') });
    },
  ],
];

const send = (k: Kernel) =>
  k.request<string>({ method: 'eth_sendTransaction', params: [{ from: A, to: B, value: '0x1' }] });

const text = new TextDecoder();

describe.each(stores)('plugin storage on %s', (_name, storage) => {
  async function start(port: StoragePort = storage()) {
    const found: { store?: PluginStore<string, BlockNote> } = {};
    const kernel = await createKernel({ storage: port, plugins: [...rpcPlugins(), blockNotes(found)] });
    kernels.push(kernel);
    return { kernel, store: found.store as PluginStore<string, BlockNote>, port };
  }

  it('a block hook’s writes land in the same batch as the block', async () => {
    const { kernel, store, port } = await start();
    const batches: string[][] = [];
    const onWrite = (ops: { key: Uint8Array | string }[]) =>
      batches.push(ops.map((o) => (typeof o.key === 'string' ? o.key : text.decode(o.key))));
    port.db.on('write', onWrite);
    await send(kernel);
    port.db.off('write', onWrite);
    const head = kernel.services.chain.head;
    expect(head.number).toBe(1n);
    const withNote = batches.filter((keys) => keys.includes(`!plugin!!acme:blocks!!byNumber!${keyOf(1n)}`));
    expect(withNote).toHaveLength(1);
    // The same batch moves the head to the block (meta `head`). A chain in memory storage keeps
    // the block's own records in tables beside the store (storage/MemoryBlockTables.ts), applied
    // with that batch once it is written.
    expect(withNote[0]).toContain('!m!head');
    expect(await store.get(keyOf(1n))).toEqual({ hash: bytesToHex(head.hash), txs: 1 });
  });

  it('evm_revert undoes the block hook’s writes; writes outside a block stay', async () => {
    const { kernel, store } = await start();
    const snap = await kernel.request<string>({ method: 'evm_snapshot' });
    await send(kernel);
    await send(kernel);
    await store.put('settings', { hash: 'kept', txs: 0 });
    expect(await store.keys({ lt: 'a' })).toEqual([keyOf(1n), keyOf(2n)]);
    expect(await kernel.request({ method: 'evm_revert', params: [snap] })).toBe(true);
    expect(kernel.services.chain.head.number).toBe(0n);
    expect(await store.keys({ lt: 'a' })).toEqual([]);
    expect(await store.get('settings')).toEqual({ hash: 'kept', txs: 0 });
    // The chain goes on, and the hooks with it.
    await send(kernel);
    expect((await store.entries({ lt: 'a' })).map(([k]) => k)).toEqual([keyOf(1n)]);
  });

  it('a plugin cannot reach the chain’s keys', async () => {
    const { kernel, store, port } = await start();
    await send(kernel);
    const head = kernel.services.chain.head;
    // Keys that spell the chain's own (meta's head pointer, block 1) stay inside the plugin's table.
    await store.put('!m!head', { hash: 'x', txs: 0 });
    await store.batch([
      { type: 'put', key: '!b!\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0001', value: { hash: 'y', txs: 0 } },
    ]);
    await store.clear();
    expect(await store.keys()).toEqual([]);
    // Nothing on the object leads to the sublevel's parent or the database.
    expect(Object.keys(store).sort()).toEqual(
      ['batch', 'clear', 'del', 'entries', 'get', 'getMany', 'keys', 'name', 'onBlock', 'onRemove', 'put'].sort(),
    );
    expect((store as unknown as { db?: unknown }).db).toBeUndefined();
    expect(Object.isFrozen(store)).toBe(true);
    // The chain is whole: its head, its block and a new block all work.
    expect(await kernel.request({ method: 'eth_blockNumber' })).toBe('0x1');
    const b1 = await kernel.request<{ hash: string }>({ method: 'eth_getBlockByNumber', params: ['0x1', false] });
    expect(b1.hash).toBe(bytesToHex(head.hash));
    await send(kernel);
    expect(await kernel.request({ method: 'eth_blockNumber' })).toBe('0x2');
    // Every key the plugin wrote sits under its prefix.
    const mine = '!plugin!!acme:blocks!';
    const outside: string[] = [];
    for await (const k of port.db.keys()) {
      const s = text.decode(k as Uint8Array);
      if (s.includes('acme') && !s.startsWith(mine)) outside.push(s);
    }
    expect(outside).toEqual([]);
  });

  it('tables of a plugin are siblings, and names a sublevel cannot hold are refused', async () => {
    const seen: { a?: PluginStore; b?: PluginStore; error?: unknown } = {};
    const kernel = await createKernel({
      storage: storage(),
      plugins: [
        definePlugin({
          name: 'acme:tables',
          register(ctx) {
            seen.a = ctx.sublevel('a');
            seen.b = ctx.sublevel('b');
            try {
              ctx.sublevel('bad name');
            } catch (e) {
              seen.error = e;
            }
          },
        }) as Plugin<unknown>,
      ],
    });
    kernels.push(kernel);
    await seen.a?.put('k', 1);
    await seen.b?.put('k', 2);
    expect(await seen.a?.entries()).toEqual([['k', 1]]);
    expect(await seen.b?.entries()).toEqual([['k', 2]]);
    expect(seen.a?.name).toBe('acme:tables/a');
    expect(seen.error).toMatchObject({
      code: 'ASHLAR_ERR_OPTIONS',
      message: `plugin storage: table name "bad name" must be printable ASCII without spaces, "!" or '"'`,
    });
  });
});

describe('a block hook that throws', () => {
  it('is logged and drops its own writes; the block and the chain state are whole', async () => {
    const errors: string[] = [];
    const logger = { error: (m: string) => errors.push(m), warn: () => {}, info: () => {}, debug: () => {} };
    let calls = 0;
    const flaky = definePlugin({
      name: 'acme:flaky',
      register(ctx) {
        const t = ctx.sublevel<string, number>('t');
        t.onBlock((b) => {
          if (calls++ === 0) throw new Error('boom');
          return [{ type: 'put', key: b.number.toString(), value: 1 }];
        });
      },
    }) as Plugin<unknown>;
    const kernel = await createKernel({ logger, plugins: [...rpcPlugins(), flaky] });
    kernels.push(kernel);
    await send(kernel);
    await send(kernel);
    expect(kernel.services.chain.head.number).toBe(2n);
    expect(errors).toEqual([
      'plugin storage acme:flaky/t: onBlock failed for block 1, its writes for that block are dropped: boom',
    ]);
    // Two transfers of 1 wei each, two nonces used: nothing half-applied.
    expect(await kernel.request({ method: 'eth_getBalance', params: [B, 'latest'] })).toBe(
      `0x${(10n ** 22n + 2n).toString(16)}`,
    );
    expect(await kernel.request({ method: 'eth_getTransactionCount', params: [A, 'latest'] })).toBe('0x2');
  });
});

describe('plugin storage on LevelDB across a restart', () => {
  it('the table agrees with the reopened chain’s head', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ashlar-plugin-store-'));
    dirs.push(dir);
    const path = join(dir, 'chain');
    const first: { store?: PluginStore<string, BlockNote> } = {};
    const k1 = await createKernel({ storage: levelStorage({ path }), plugins: [...rpcPlugins(), blockNotes(first)] });
    await send(k1);
    await send(k1);
    const hash2 = bytesToHex(k1.services.chain.head.hash);
    await k1.close();
    const again: { store?: PluginStore<string, BlockNote> } = {};
    const k2 = await createKernel({ storage: levelStorage({ path }), plugins: [...rpcPlugins(), blockNotes(again)] });
    kernels.push(k2);
    expect(k2.services.chain.head.number).toBe(2n);
    expect(await again.store?.get(keyOf(2n))).toEqual({ hash: hash2, txs: 1 });
    expect(await again.store?.keys()).toEqual([keyOf(1n), keyOf(2n)]);
  });
});
