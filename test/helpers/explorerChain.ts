/**
 * An in-process node with the explorer, and a chain that has a bit of everything the explorer
 * shows: value transfers, contract creations, an ERC-20, an ERC-721 and an ERC-1155 (with a
 * batch of more than 50 items), reverted transactions, withdrawals, and — on request — pending
 * transactions.
 */
import { type IndexOptions, type Kernel, type Plugin, createKernel, indexPlugin, type StoragePort } from '@ashlar/core';
import { type ExplorerPluginOptions, explorerPlugin } from '@ashlar/explorer';
import { devPlugin, rpcPlugins } from '@ashlar/rpc';
import { Interface } from 'ethers';
import { type ContractName, loadArtifact } from './contracts.js';

export type Hex = `0x${string}`;

/** A response body in assertions: JSON read field by field (the schema tests check its shape). */
// biome-ignore lint/suspicious/noExplicitAny: test-only view of JSON bodies
export type Body = any;

/** The explorer's options and its index's (`reindex`, `progress`, `idleMs`, `maxPending`: the `index` plugin's). */
export type ExplorerTestOptions = ExplorerPluginOptions & IndexOptions;

/** rpc plugins, the dev namespace (once, wherever it is listed), the index and the explorer. */
export function explorerPlugins(options: ExplorerTestOptions = {}): Plugin<unknown>[] {
  const { reindex, progress, idleMs, maxPending, ...explorer } = options;
  const base = rpcPlugins();
  const dev = base.some((p) => p.name === 'rpc:dev') ? [] : [devPlugin as Plugin<unknown>];
  return [
    ...base,
    ...dev,
    indexPlugin({ reindex, progress, idleMs, maxPending }),
    explorerPlugin(explorer),
  ] as Plugin<unknown>[];
}

export async function explorerKernel(
  opts: { storage?: StoragePort; explorer?: ExplorerTestOptions; hardfork?: string; genesisTimestamp?: number } = {},
): Promise<Kernel> {
  const chain = { hardfork: opts.hardfork, genesisTimestamp: opts.genesisTimestamp };
  return createKernel({
    storage: opts.storage,
    chain: opts.hardfork || opts.genesisTimestamp !== undefined ? chain : undefined,
    plugins: explorerPlugins(opts.explorer),
  });
}

/** GET through the kernel's REST routes (what the HTTP transport serves), body JSON round-tripped. */
export async function api(kernel: Kernel, path: string): Promise<{ status: number; body: Body }> {
  const u = new URL(path, 'http://explorer.test');
  const found = kernel.routes.lookup('GET', u.pathname);
  if (!found) return { status: 404, body: { message: 'Not found' } };
  const res = await found.handler({ method: 'GET', path: u.pathname, params: found.params, query: u.searchParams });
  return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) };
}

export async function apiOk(kernel: Kernel, path: string): Promise<Body> {
  const res = await api(kernel, path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export class ChainDriver {
  readonly accounts: Hex[];
  constructor(readonly kernel: Kernel) {
    this.accounts = kernel.chain.accounts.map((a) => a.address.toString() as Hex);
  }

  async send(tx: { from?: Hex; to?: Hex; value?: bigint; data?: Hex; gas?: bigint }): Promise<Hex> {
    const params: Record<string, string> = { from: tx.from ?? this.accounts[0] };
    if (tx.to) params.to = tx.to;
    if (tx.value !== undefined) params.value = `0x${tx.value.toString(16)}`;
    if (tx.data) params.data = tx.data;
    if (tx.gas !== undefined) params.gas = `0x${tx.gas.toString(16)}`;
    try {
      return await this.kernel.request<Hex>({ method: 'eth_sendTransaction', params: [params] });
    } catch (e) {
      // A mined transaction that failed: Hardhat's answer is an error carrying its hash.
      const txHash = (e as { data?: { txHash?: Hex } }).data?.txHash;
      if (txHash) return txHash;
      throw e;
    }
  }

  async receipt(hash: Hex): Promise<{ contractAddress: Hex | null; status: Hex }> {
    return this.kernel.request({ method: 'eth_getTransactionReceipt', params: [hash] });
  }

  async deploy(name: ContractName, args: unknown[] = [], from?: Hex): Promise<{ address: Hex; hash: Hex }> {
    const a = loadArtifact(name);
    const data = (a.bytecode + new Interface(a.abi).encodeDeploy(args).slice(2)) as Hex;
    const hash = await this.send({ from, data });
    const r = await this.receipt(hash);
    if (!r.contractAddress) throw new Error(`${name} was not deployed`);
    return { address: r.contractAddress, hash };
  }

  async call(name: ContractName, to: Hex, fn: string, args: unknown[], opts: { from?: Hex; gas?: bigint } = {}) {
    const data = new Interface(loadArtifact(name).abi).encodeFunctionData(fn, args) as Hex;
    return this.send({ to, data, from: opts.from, gas: opts.gas });
  }

  mine(): Promise<unknown> {
    return this.kernel.request({ method: 'evm_mine', params: [] });
  }
}

export interface RichChain {
  d: ChainDriver;
  token: Hex;
  nft: Hex;
  multi: Hex;
  tokenDeploy: Hex;
  transferTx: Hex;
  revertedTx: Hex;
  batchTx: Hex;
  valueTx: Hex;
  withdrawalReceiver: Hex;
}

/** Builds the chain every explorer test starts from. */
export async function buildRichChain(kernel: Kernel): Promise<RichChain> {
  const d = new ChainDriver(kernel);
  const [a, b, c, e] = d.accounts;
  const valueTx = await d.send({ to: b, value: 10n ** 18n });
  await d.send({ from: b, to: c, value: 12345n });
  const { address: token, hash: tokenDeploy } = await d.deploy('Token', ['Ash Token', 'ASH', 10n ** 24n]);
  const transferTx = await d.call('Token', token, 'transfer', [b, 100n * 10n ** 18n]);
  await d.call('Token', token, 'transfer', [c, 50n * 10n ** 18n]);
  await d.call('Token', token, 'approve', [b, 10n ** 18n]);
  // Fails on chain (more than c holds): explicit gas, so no estimate refuses it first.
  const revertedTx = await d.call('Token', token, 'transfer', [a, 10n ** 30n], { from: c, gas: 100_000n });

  const { address: nft } = await d.deploy('Collectible', ['Ash Collectible', 'ASHC']);
  await d.call('Collectible', nft, 'mint', [a, 1n]);
  await d.call('Collectible', nft, 'mint', [b, 2n]);
  await d.call('Collectible', nft, 'transferFrom', [a, c, 1n]);
  await d.call('Collectible', nft, 'burn', [2n], { from: b });

  const { address: multi } = await d.deploy('MultiToken', ['Ash Multi', 'ASHM']);
  await d.call('MultiToken', multi, 'mint', [a, 7n, 100n]);
  const ids = Array.from({ length: 60 }, (_, i) => BigInt(i + 1));
  const batchTx = await d.call('MultiToken', multi, 'mintBatch', [b, ids, ids.map(() => 5n)]);
  await d.call('MultiToken', multi, 'safeTransferFrom', [a, c, 7n, 10n, '0x']);
  await d.call('MultiToken', multi, 'safeBatchTransferFrom', [b, c, [1n, 2n, 3n], [1n, 1n, 1n], '0x'], { from: b });

  await kernel.request({
    method: 'ashlar_addWithdrawals',
    params: [
      [
        { validatorIndex: '0x5', address: e, amount: '0x3b9aca00' },
        { validatorIndex: '0x6', address: e, amount: '0x1' },
      ],
    ],
  });
  await d.mine();
  return { d, token, nft, multi, tokenDeploy, transferTx, revertedTx, batchTx, valueTx, withdrawalReceiver: e };
}

/** Turns automine off and leaves `count` value transfers in the pool. */
export async function addPending(d: ChainDriver, count: number): Promise<Hex[]> {
  await d.kernel.request({ method: 'evm_setAutomine', params: [false] });
  const out: Hex[] = [];
  for (let i = 0; i < count; i++)
    out.push(await d.send({ from: d.accounts[5], to: d.accounts[6], value: BigInt(i + 1) }));
  return out;
}
