import type { NodeOptions } from 'ashlar';

/** How a Hardhat project's in-process Ashlar chain is set up (the same options for Hardhat 2 and 3). */
export interface AshlarHardhatOptions {
  /** LevelDB directory that keeps the chain between runs; absent, the chain lives in memory. */
  db?: string;
  /** EVM rules (default: the newest fork Ashlar knows, see `SUPPORTED_HARDFORKS`). */
  hardfork?: string;
  /** Chain id (default 31337, as Hardhat). */
  chainId?: number;
  /** The dev accounts: how many (default 20), from which mnemonic (`test … junk`), and each one's balance in wei (10000 ETH). */
  accounts?: { count?: number; mnemonic?: string; balance?: bigint | string };
  /**
   * What `eth_sendTransaction` fills in for missing gas and fee fields: `'hardhat'` (default here)
   * sends EIP-1559 transactions priced as Hardhat's network does; `'spec'` keeps the plain node's
   * legacy defaults.
   */
  sendDefaults?: 'hardhat' | 'spec';
  /**
   * Serve the chain's JSON-RPC, WebSocket and explorer API (`/api/v2`) on this port while the
   * tests run (0: any free port), so a developer can look at what a test left behind.
   */
  port?: number;
  /** Interface of that server (default 127.0.0.1). */
  host?: string;
  /** Any other `createNode` option (mining, gas limit, logger, …); applied over the ones above. */
  node?: NodeOptions;
}

/** The `createNode` options of an in-process chain for a Hardhat project. */
export function toNodeOptions(o: AshlarHardhatOptions = {}): NodeOptions {
  const chain: NonNullable<NodeOptions['chain']> = {};
  if (o.hardfork !== undefined) chain.hardfork = o.hardfork;
  if (o.chainId !== undefined) chain.chainId = o.chainId;
  if (o.accounts?.count !== undefined) chain.accounts = o.accounts.count;
  if (o.accounts?.mnemonic !== undefined) chain.mnemonic = o.accounts.mnemonic;
  if (o.accounts?.balance !== undefined) chain.balance = BigInt(o.accounts.balance);
  const node = o.node ?? {};
  return {
    ...(o.db !== undefined ? { db: o.db } : { memory: true }),
    sendDefaults: o.sendDefaults ?? 'hardhat',
    ...node,
    chain: { ...chain, ...node.chain },
  };
}
