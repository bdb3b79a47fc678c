/**
 * Hardhat 2.29's own network (EDR), in process, as the peer that differential tests compare
 * Ashlar with. It runs with Hardhat's defaults for the `hardhat` network, with the hardfork and
 * accounts given, so both nodes start from the same 20 dev accounts.
 */
import { createRequire } from 'node:module';
import { HDNodeWallet, Mnemonic } from 'ethers';

export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

const require = createRequire(import.meta.url);
const MNEMONIC = 'test test test test test test test test test test test junk';

interface HardhatProviderModule {
  createHardhatNetworkProvider(config: Record<string, unknown>, logger: Record<string, unknown>): Promise<Eip1193>;
}
interface HardhatDefaults {
  defaultHardhatNetworkParams: { chains: unknown };
}

/** Hardhat's in-process network provider (automine on, 30M gas, 1 gwei initial base fee, chain 31337). */
export async function hardhatProvider(
  opts: { hardfork?: string; accounts?: number; printLine?: (line: string) => void } = {},
): Promise<Eip1193> {
  const mod = require('hardhat/internal/hardhat-network/provider/provider') as HardhatProviderModule;
  const defaults = require('hardhat/internal/core/config/default-config') as HardhatDefaults;
  const mnemonic = Mnemonic.fromPhrase(MNEMONIC);
  const genesisAccounts = Array.from({ length: opts.accounts ?? 20 }, (_, i) => ({
    privateKey: HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`).privateKey,
    balance: '10000000000000000000000',
  }));
  return mod.createHardhatNetworkProvider(
    {
      hardfork: opts.hardfork ?? 'prague',
      chainId: 31337,
      networkId: 31337,
      blockGasLimit: 30_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: defaults.defaultHardhatNetworkParams.chains,
      genesisAccounts,
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      initialBaseFeePerGas: 1_000_000_000,
      coinbase: '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e',
      enableTransientStorage: false,
      enableRip7212: false,
    },
    // With printLine, Hardhat's own node log (console.log lines among it) goes there.
    opts.printLine
      ? { enabled: true, printLineFn: opts.printLine, replaceLastLineFn: opts.printLine }
      : { enabled: false, printLineFn: () => undefined, replaceLastLineFn: () => undefined },
  );
}

interface HardhatServerModule {
  JsonRpcServer: new (config: {
    hostname: string;
    port: number;
    provider: Eip1193;
  }) => {
    listen(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  };
}

/** Hardhat's own JSON-RPC server (what `hardhat node` runs) over `provider`, on a free loopback port. */
export async function hardhatHttp(provider: Eip1193): Promise<{ url: string; close(): Promise<void> }> {
  const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server') as HardhatServerModule;
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: 0, provider });
  const { port } = await server.listen();
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
