import { INDEX_PLUGIN, IndexTokens, type KernelServices, type Token, definePlugin, token } from '@ashlar/core';
import { Explorer, type ExplorerOptions } from './Explorer.js';
import { unknownActionResponse } from './http/errors.js';
import { ExplorerRouter } from './http/router.js';
import { addressActivityRoutes } from './routes/address_activity.js';
import { addressTabRoutes } from './routes/address_tabs.js';
import { addressTokenRoutes } from './routes/address_tokens.js';
import { addressRoutes } from './routes/addresses.js';
import { blockRoutes } from './routes/blocks.js';
import { configRoutes } from './routes/config.js';
import type { RouteContext } from './routes/context.js';
import { mainPageRoutes } from './routes/main_page.js';
import { etherscanApiRoutes } from './routes/etherscan_api.js';
import { internalTransactionRoutes } from './routes/internal_transactions.js';
import { nftRoutes } from './routes/nft.js';
import { searchRoutes } from './routes/search.js';
import { smartContractRoutes } from './routes/smart_contracts.js';
import { statsRoutes } from './routes/stats.js';
import { tokenTransferRoutes } from './routes/token_transfers.js';
import { tokenRoutes } from './routes/tokens.js';
import { transactionInsightRoutes } from './routes/transaction_insights.js';
import { transactionStatsRoutes } from './routes/transaction_stats.js';
import { transactionRoutes } from './routes/transactions.js';
import { withdrawalRoutes } from './routes/withdrawals.js';
import { SmartContracts, type SmartContractsOptions } from './verify/SmartContracts.js';

/** The index's own options (`reindex`, `progress`) go to core's `indexPlugin()`, which the explorer reads. */
export interface ExplorerPluginOptions extends ExplorerOptions, SmartContractsOptions {}

export const ExplorerTokens = {
  explorer: token<Explorer>('ashlar:explorer'),
} satisfies Record<string, Token<unknown>>;

/** Every route module, in the order Blockscout's router lists its controllers. */
const ROUTES = [
  mainPageRoutes,
  statsRoutes,
  searchRoutes,
  configRoutes,
  blockRoutes,
  transactionStatsRoutes,
  transactionRoutes,
  transactionInsightRoutes,
  internalTransactionRoutes,
  addressRoutes,
  addressTokenRoutes,
  addressActivityRoutes,
  addressTabRoutes,
  tokenRoutes,
  tokenTransferRoutes,
  nftRoutes,
  withdrawalRoutes,
  smartContractRoutes,
];

/**
 * The Blockscout-compatible explorer API under /api/v2, read from the kernel's index (the
 * `index` plugin, a declared dependency). Any transport that serves the kernel's routes — the
 * HTTP one does — serves it on the node's port; mount it on its own with `createKernel({
 * plugins: [indexPlugin(), explorerPlugin()] })`.
 */
export function explorerPlugin(options: ExplorerPluginOptions = {}) {
  return definePlugin<ExplorerPluginOptions>({
    name: 'explorer',
    dependencies: [INDEX_PLUGIN],
    options,
    async register(ctx, opts) {
      const index = ctx.resolve(IndexTokens.index);
      const ex = new Explorer(ctx.services, index, opts);
      // Verified contracts live in the chain's database; --artifacts verifies from a build folder.
      const contracts = await SmartContracts.open(ctx.services, index, ctx.logger, {
        artifacts: opts.artifacts,
        solc: opts.solc,
      });
      ex.contracts = contracts;
      // Revert messages name a custom error from the called contract's verified ABI (issue #18).
      const forget = ctx.services.knownContracts.add((address) => {
        const info = contracts.info(address);
        const name = info?.name ?? info?.implementationName;
        const abi = contracts.abiOf(address);
        if (!name || !abi) return undefined;
        return contracts.watcher?.hasSourceLines(address)
          ? { name, abi, sourceLine: (pcs: readonly number[]) => contracts.sourceLineAt(address, pcs) }
          : { name, abi };
      });
      ctx.events.once('close', () => {
        forget();
        contracts.close();
      });
      ctx.provide(ExplorerTokens.explorer, () => ex);
      const rc: RouteContext = { ex, r: new ExplorerRouter(ctx.routes, ctx.logger) };
      for (const add of ROUTES) add(rc);
      rc.r.fallback(unknownActionResponse);
      etherscanApiRoutes(ex, ctx.routes);
    },
  });
}

/** The kernel's explorer, or undefined when the plugin is not loaded (e.g. to set its JSON-RPC URL once a server listens). */
export function explorerOf(from: { readonly services: KernelServices } | KernelServices): Explorer | undefined {
  return ('services' in from ? from.services : from).find(ExplorerTokens.explorer);
}
