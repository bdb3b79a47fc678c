// The shapes of Hardhat 3's plugin API that this plugin uses, written out structurally so the
// package builds without Hardhat 3 installed (it needs Node 22; Ashlar supports Node 20).
// They mirror hardhat/types/{plugins,hooks,network,providers} of Hardhat 3.18.

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: number | string;
  method: string;
  params?: unknown[] | object;
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: number | string; result: unknown }
  | { jsonrpc: '2.0'; id: number | string | null; error: { code: number; message: string; data?: unknown } };

/** The part of a Hardhat 3 network connection the hooks read: which network it is. */
export interface NetworkConnectionLike {
  readonly id: number;
  readonly networkName: string;
}

/** Hardhat's hook context; the hooks pass it on untouched. */
export type HookContext = object;

export interface UserConfigLike {
  networks?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ConfigHooks {
  extendUserConfig(
    config: UserConfigLike,
    next: (config: UserConfigLike) => Promise<UserConfigLike>,
  ): Promise<UserConfigLike>;
}

export interface NetworkHooks {
  onRequest(
    context: HookContext,
    connection: NetworkConnectionLike,
    request: JsonRpcRequest,
    next: (
      context: HookContext,
      connection: NetworkConnectionLike,
      request: JsonRpcRequest,
    ) => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse>;
  closeConnection(
    context: HookContext,
    connection: NetworkConnectionLike,
    next: (context: HookContext, connection: NetworkConnectionLike) => Promise<void>,
  ): Promise<void>;
}

/** A Hardhat 3 plugin: an id and lazily loaded hook handler categories. */
export interface HardhatPluginLike {
  id: string;
  npmPackage?: string | null;
  hookHandlers: {
    config: () => Promise<{ default: () => Promise<ConfigHooks> }>;
    network: () => Promise<{ default: () => Promise<NetworkHooks> }>;
  };
}
