/**
 * The slice of @ashlar/core this package depends on, in one place. Only types cross the
 * boundary: the transport needs no kernel at runtime, so any engine that answers JSON-RPC
 * payloads works (the tests pass small fakes).
 */
import type { JsonRpcResponse, RpcContext, RpcEngine } from '@ashlar/core';

export type { JsonRpcResponse, RpcEngine };

/** What the transport hands the engine with every request: who is calling, and how to reach them later. */
export type RpcConnection = Required<NonNullable<RpcContext['connection']>>;

/** Where messages about the transport go (the kernel's Logger fits). */
export interface WsLogger {
  warn(message: string): void;
  error(message: string): void;
}
