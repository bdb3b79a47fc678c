/**
 * The kernel as a library: several kernels in one process share nothing, and the plugin API
 * (names, dependencies, order, close hooks, methods) behaves as documented.
 */
import { type Kernel, type Plugin, Tokens, createKernel, definePlugin, defineRpcMethod } from '@ashlar/core';
import { createNode } from 'ashlar';
import { afterEach, describe, expect, it } from 'vitest';

type Hex = `0x${string}`;

const open: Kernel[] = [];
async function track(k: Promise<Kernel>): Promise<Kernel> {
  const kernel = await k;
  open.push(kernel);
  return kernel;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((k) => k.close()));
});

const call = <T = unknown>(k: Kernel, method: string, params: unknown[] = []): Promise<T> =>
  k.request<T>({ method, params });

/** A plugin that records register/close into `log`. */
function recorder(name: string, log: string[], dependencies?: string[]): Plugin<unknown> {
  return definePlugin<unknown>({
    name,
    dependencies,
    register() {
      log.push(`register ${name}`);
    },
    close() {
      log.push(`close ${name}`);
    },
  });
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Error) return e;
    throw new Error(`rejected with a non-Error: ${String(e)}`);
  }
  throw new Error('expected a rejection');
}

describe('two kernels in one process', () => {
  it('share nothing: a transaction in one leaves the other untouched', async () => {
    const a = await track(createNode({ mining: { automine: false } }));
    const b = await track(createNode({ mining: { automine: false } }));
    const from = a.chain.accounts[0].address.toString();
    const to = a.chain.accounts[1].address.toString();
    // same mnemonic: the same dev accounts exist on both
    expect(b.chain.accounts[0].address.toString()).toBe(from);

    const snapshot = async (k: Kernel) => ({
      head: await call<Hex>(k, 'eth_blockNumber'),
      from: await call<Hex>(k, 'eth_getBalance', [from, 'latest']),
      to: await call<Hex>(k, 'eth_getBalance', [to, 'latest']),
      nonce: await call<Hex>(k, 'eth_getTransactionCount', [from, 'pending']),
      pool: k.mempool.size,
    });
    const bBefore = await snapshot(b);

    const hash = await call<Hex>(a, 'eth_sendTransaction', [{ from, to, value: '0xde0b6b3a7640000' }]);
    expect(a.mempool.size).toBe(1);
    expect(await snapshot(b)).toEqual(bBefore);
    expect(await call(b, 'eth_getTransactionByHash', [hash])).toBeNull();

    await call(a, 'evm_mine');
    expect(await call(a, 'eth_blockNumber')).toBe('0x1');
    expect(await call(a, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' });
    expect(await snapshot(b)).toEqual(bBefore);
    expect(await call(b, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect(BigInt(await call<Hex>(a, 'eth_getBalance', [to, 'latest']))).toBe(BigInt(bBefore.to) + 10n ** 18n);
  });

  it('run different chain ids side by side', async () => {
    const a = await track(createNode({ chain: { chainId: 1337 } }));
    const b = await track(createNode({ chain: { chainId: 424242 } }));
    expect(await call(a, 'eth_chainId')).toBe('0x539');
    expect(await call(b, 'eth_chainId')).toBe('0x67932');
    expect(await call(a, 'net_version')).toBe('1337');
    expect(await call(b, 'net_version')).toBe('424242');
    // each signs with its own chain id
    const from = a.chain.accounts[0].address.toString();
    const ha = await call<Hex>(a, 'eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    const hb = await call<Hex>(b, 'eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    expect(await call(a, 'eth_getTransactionByHash', [ha])).toMatchObject({ chainId: '0x539' });
    expect(await call(b, 'eth_getTransactionByHash', [hb])).toMatchObject({ chainId: '0x67932' });
    expect(ha).not.toBe(hb);
  });

  it('have their own containers and services', async () => {
    const a = await track(createKernel());
    const b = await track(createKernel());
    expect(a.container).not.toBe(b.container);
    const chainA = a.resolve(Tokens.chain);
    const chainB = b.resolve(Tokens.chain);
    expect(chainA).not.toBe(chainB);
    expect(a.container.resolve(Tokens.chain)).toBe(chainA);
    expect(b.container.resolve(Tokens.chain)).toBe(chainB);
    expect(a.chain).toBe(chainA);
    expect(a.mempool).not.toBe(b.mempool);
    expect(a.methods).not.toBe(b.methods);
    expect(a.events).not.toBe(b.events);
  });

  it('keep plugin methods per kernel', async () => {
    const plugin = definePlugin({
      name: 'only-a',
      register(ctx) {
        ctx.addMethods(defineRpcMethod({ name: 'test_onlyA', params: [], handler: () => 'a' }));
      },
    });
    const a = await track(createKernel({ plugins: [plugin] }));
    const b = await track(createKernel());
    expect(await call(a, 'test_onlyA')).toBe('a');
    await expect(call(b, 'test_onlyA')).rejects.toMatchObject({ code: -32601 });
  });
});

describe('plugin API', () => {
  it('rejects two plugins with the same name, naming it', async () => {
    const log: string[] = [];
    const e = await rejection(createKernel({ plugins: [recorder('twin', log), recorder('twin', log)] }));
    expect(e.message).toContain('twin');
    // checked as a set before anything registers
    expect(log).toEqual([]);
  });

  it('rejects a missing dependency, naming both plugins', async () => {
    const log: string[] = [];
    const e = await rejection(createKernel({ plugins: [recorder('explorer-x', log, ['indexer-y'])] }));
    expect(e.message).toContain('explorer-x');
    expect(e.message).toContain('indexer-y');
    expect(log).toEqual([]);
  });

  it('registers in dependency order and closes in reverse', async () => {
    const log: string[] = [];
    const kernel = await createKernel({
      plugins: [recorder('c', log, ['b']), recorder('b', log, ['a']), recorder('a', log), recorder('d', log)],
    });
    expect(log).toEqual(['register a', 'register b', 'register c', 'register d']);
    log.length = 0;
    await kernel.close();
    expect(log).toEqual(['close d', 'close c', 'close b', 'close a']);
  });

  it('answers a plugin method through kernel.request and kernel.handle', async () => {
    const plugin = definePlugin({
      name: 'greeter',
      register(ctx) {
        ctx.addMethods(
          defineRpcMethod({
            name: 'greet_hello',
            params: [
              {
                name: 'who',
                optional: true,
                parse: (v: unknown) => (v === undefined ? 'world' : String(v)),
              },
            ],
            handler: (c, [who]) => `hello ${who} from chain ${c.services.chain.common.chainId()}`,
          }),
        );
      },
    });
    const kernel = await track(createKernel({ plugins: [plugin] }));
    expect(await kernel.request({ method: 'greet_hello', params: ['ashlar'] })).toBe('hello ashlar from chain 31337');
    expect(await kernel.request({ method: 'greet_hello' })).toBe('hello world from chain 31337');
    expect(await kernel.handle({ jsonrpc: '2.0', id: 3, method: 'greet_hello', params: [] })).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: 'hello world from chain 31337',
    });
  });

  it('rejects a method name registered twice, naming both plugins', async () => {
    const method = () => defineRpcMethod({ name: 'dup_method', params: [], handler: () => 1 });
    const first = definePlugin({
      name: 'first-owner',
      register(ctx) {
        ctx.addMethods(method());
      },
    });
    const second = definePlugin({
      name: 'second-owner',
      register(ctx) {
        ctx.addMethods(method());
      },
    });
    const e = await rejection(createKernel({ plugins: [first, second] }));
    expect(e.message).toContain('dup_method');
    expect(e.message).toContain('first-owner');
    expect(e.message).toContain('second-owner');
  });

  it('closes the plugins already registered when a later one fails', async () => {
    const log: string[] = [];
    const failing = definePlugin({
      name: 'fails',
      register() {
        throw new Error('cannot start');
      },
    });
    const e = await rejection(createKernel({ plugins: [recorder('ok', log), failing] }));
    expect(e.message).toContain('cannot start');
    expect(log).toEqual(['register ok', 'close ok']);
  });

  it('makes kernel.close() safe to call twice', async () => {
    const log: string[] = [];
    const kernel = await createKernel({ plugins: [recorder('once', log)] });
    const first = kernel.close();
    const second = kernel.close();
    await expect(Promise.all([first, second])).resolves.toBeDefined();
    await expect(kernel.close()).resolves.toBeUndefined();
    expect(log.filter((l) => l === 'close once')).toHaveLength(1);
  });

  it('makes close() on a full node safe to call twice', async () => {
    const node = await createNode();
    await node.close();
    await expect(node.close()).resolves.toBeUndefined();
  });
});
