/**
 * A replacement service (docs/plugins.md, example 3): a mempool admission policy. The plugin
 * provides its own MempoolService under the kernel's token before anything uses the pool, so
 * every sender of transactions (eth_sendTransaction, eth_sendRawTransaction, the dev methods)
 * goes through it. Transactions to a blocked address are refused with an error of the plugin's
 * own; the rest are pooled (and, under automine, mined) as usual.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/mempool-policy.ts
 */
import { pathToFileURL } from 'node:url';
import {
  type Kernel,
  MempoolService,
  type PendingTx,
  type Plugin,
  RpcRequestError,
  Tokens,
  createKernel,
  definePlugin,
} from '@ashlar/core';
import { rpcPlugins } from '@ashlar/rpc';

/** The JSON-RPC code of a refused transaction (in the server range, outside EIP-1474's -32000…-32006). */
export const BLOCKED_CODE = -32010;

/** The kernel's pool, with one more admission rule. */
class BlocklistMempool extends MempoolService {
  constructor(private readonly blocked: ReadonlySet<string>) {
    super();
  }

  override add(ptx: PendingTx): PendingTx | undefined {
    const to = ptx.tx.to?.toString();
    if (to !== undefined && this.blocked.has(to)) {
      throw new RpcRequestError(BLOCKED_CODE, `transactions to ${to} are not accepted`, { to }, 'ACME_ERR_BLOCKED');
    }
    return super.add(ptx);
  }
}

/** Mount it before the plugins that use the pool (rpcPlugins()), so theirs is this one. */
export function blocklistPlugin(blocked: readonly string[]) {
  return definePlugin({
    name: 'acme-blocklist',
    register(ctx) {
      ctx.provide(Tokens.mempool, () => new BlocklistMempool(new Set(blocked.map((a) => a.toLowerCase()))));
    },
  });
}

export function start(blocked: readonly string[]): Promise<Kernel> {
  return createKernel({ plugins: [blocklistPlugin(blocked) as Plugin<unknown>, ...rpcPlugins()] });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const blocked = '0x000000000000000000000000000000000000dead';
  const kernel = await start([blocked]);
  const [from] = await kernel.request<string[]>({ method: 'eth_accounts' });
  try {
    await kernel.request({ method: 'eth_sendTransaction', params: [{ from, to: blocked, value: '0x1' }] });
  } catch (e) {
    console.log('refused:', (e as Error).message);
  }
  await kernel.close();
}
