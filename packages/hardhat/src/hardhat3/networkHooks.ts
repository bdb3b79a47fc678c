import type { AshlarHardhatOptions } from '../options.js';
import { type AshlarChain, startAshlar } from '../startAshlar.js';
import type { JsonRpcResponse, NetworkConnectionLike, NetworkHooks } from './types.js';

/**
 * Answers every request of the taken-over network from an in-process Ashlar chain. Each
 * connection (`network.connect()` / `network.create()`) gets a fresh chain, as Hardhat's simulated
 * network gives; with a LevelDB `db` they share one chain, since one directory holds one chain.
 * A `port` serves the first open chain; a later connection takes the port when it is free again.
 */
export function networkHooks(
  networkName: string,
  options: AshlarHardhatOptions,
  start: (options: AshlarHardhatOptions) => Promise<AshlarChain> = startAshlar,
): NetworkHooks {
  const chains = new Map<NetworkConnectionLike, Promise<AshlarChain>>();
  let shared: { chain: Promise<AshlarChain>; users: number } | undefined;
  let portHolder: NetworkConnectionLike | undefined;

  const open = (connection: NetworkConnectionLike): Promise<AshlarChain> => {
    if (options.db !== undefined) {
      if (!shared) shared = { chain: start(options), users: 0 };
      shared.users++;
      return shared.chain;
    }
    const servesPort = options.port !== undefined && portHolder === undefined;
    if (servesPort) portHolder = connection;
    const { port: _port, ...withoutPort } = options;
    return start(servesPort ? options : withoutPort);
  };

  const release = async (connection: NetworkConnectionLike, chain: Promise<AshlarChain>): Promise<void> => {
    if (portHolder === connection) portHolder = undefined;
    if (shared && shared.chain === chain) {
      if (--shared.users > 0) return;
      shared = undefined;
    }
    // A chain that failed to start (a port in use, a locked db) has nothing to close.
    const started = await chain.catch(() => undefined);
    await started?.close();
  };

  return {
    async onRequest(context, connection, request, next) {
      if (connection.networkName !== networkName) return next(context, connection, request);
      let chain = chains.get(connection);
      if (!chain) {
        chain = open(connection);
        chains.set(connection, chain);
      }
      const response = (await (await chain).kernel.handle(request)) as JsonRpcResponse | undefined;
      // A request always has an id here, so the dispatcher always answers; null keeps the type total.
      return response ?? { jsonrpc: '2.0', id: request.id, result: null };
    },
    async closeConnection(context, connection, next) {
      const chain = chains.get(connection);
      if (chain) {
        chains.delete(connection);
        await release(connection, chain);
      }
      return next(context, connection);
    },
  };
}
