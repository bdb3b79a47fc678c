/**
 * An explorer route plugin with an index of its own (docs/plugins.md, example 2): every value
 * transfer, listed per address, newest first, 50 a page, in Blockscout's shapes. The index is a
 * table of the plugin's own storage, written in each block's atomic batch and undone in the
 * batch that removes blocks (evm_revert, hardhat_reset), so it always agrees with the chain.
 *
 * GET /api/v2/acme/addresses/:address/value-transfers[?block_number=…&index=…]
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/explorer-transfers.ts
 */
import { pathToFileURL } from 'node:url';
import {
  type Kernel,
  type Plugin,
  type PluginWrite,
  type StoredBlock,
  createKernel,
  definePlugin,
  indexPlugin,
  injectRoute,
  methodCaller,
  toData,
} from '@ashlar/core';
import { ExplorerRouter, PAGE_SIZE, explorerPlugin, pageOf, parseAddress, txCursor } from '@ashlar/explorer';
import { rpcPlugins } from '@ashlar/rpc';

/** One transfer as stored (JSON: numbers that may pass 2^53 are decimal strings). */
interface Transfer {
  hash: string;
  from: string;
  to: string;
  value: string;
  block: string;
  index: number;
}

// Keys sort as the list reads: address, then block and position as fixed-width hex.
const hex = (n: bigint | number, width: number) => n.toString(16).padStart(width, '0');
const keyOf = (address: string, block: bigint, index: number) => `${address}:${hex(block, 16)}:${hex(index, 8)}`;

/** The table's writes for a block: each transfer under its sender and its recipient. */
function transfersOf(b: StoredBlock): { key: string; value: Transfer }[] {
  const out: { key: string; value: Transfer }[] = [];
  b.block.transactions.forEach((tx, index) => {
    if (tx.value === 0n || !tx.to) return;
    const from = b.senders[index].toString();
    const to = tx.to.toString();
    const value: Transfer = {
      hash: toData(tx.hash()),
      from,
      to,
      value: tx.value.toString(),
      block: b.number.toString(),
      index,
    };
    for (const address of new Set([from, to])) out.push({ key: keyOf(address, b.number, index), value });
  });
  return out;
}

export const transfersPlugin = definePlugin({
  name: 'acme-transfers',
  register(ctx) {
    const table = ctx.sublevel<string, Transfer>('by-address');
    // In the block's own batch: the block and its transfers are stored together or not at all.
    table.onBlock((b) =>
      transfersOf(b).map(({ key, value }): PluginWrite<string, Transfer> => ({ type: 'put', key, value })),
    );
    // When the head moves back past a block, its transfers go in the same batch as the block.
    table.onRemove((b) => transfersOf(b).map(({ key }): PluginWrite<string, Transfer> => ({ type: 'del', key })));

    const r = new ExplorerRouter(ctx.routes, ctx.logger);
    r.get('/acme/addresses/:address/value-transfers', async (req) => {
      const address = toData(parseAddress(req.params.address, 'address_hash'));
      const after = txCursor(req.query); // 422 for a malformed block_number / index
      const rows = await table.entries({
        gt: `${address}:`,
        lt: after ? keyOf(address, after.block, after.index) : `${address};`,
        reverse: true,
        limit: PAGE_SIZE + 1,
      });
      return pageOf(
        rows.map(([, t]) => t),
        (shown) => shown.map(({ block, ...t }) => ({ ...t, block_number: Number(block) })),
        (last) => ({ block_number: Number(last.block), index: last.index }),
      );
    });
  },
});

/** A kernel with JSON-RPC, the explorer and this plugin. */
export function start(): Promise<Kernel> {
  return createKernel({
    plugins: [...rpcPlugins(), indexPlugin(), explorerPlugin(), transfersPlugin] as Plugin<unknown>[],
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const kernel = await start();
  const rpc = methodCaller(kernel);
  const [from, to] = await rpc.call('eth_accounts');
  for (const value of ['0x1', '0x2', '0x3'] as const) await rpc.call('eth_sendTransaction', [{ from, to, value }]);
  const res = await injectRoute(kernel.routes, 'GET', `/api/v2/acme/addresses/${to}/value-transfers`);
  console.log(JSON.stringify(res.body, null, 2));
  await kernel.close();
}
