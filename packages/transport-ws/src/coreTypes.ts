/**
 * The slice of @ashlar/core this package depends on, in one place. Only types cross the
 * boundary: the transport needs no kernel at runtime, so any engine that answers JSON-RPC
 * payloads works (the tests pass small fakes).
 */
import type { EngineCloseHook, JsonRpcResponse, RpcContext, RpcEngine } from '@ashlar/core';

export type { EngineCloseHook, JsonRpcResponse, RpcEngine };

/** What the transport hands the engine with every request: who is calling, and how to reach them later. */
export type RpcConnection = Required<NonNullable<RpcContext['connection']>>;

/** Where messages about the transport go (the kernel's Logger fits). */
export interface WsLogger {
  warn(message: string): void;
  error(message: string): void;
}

/** An upgrade or a message we will not serve: HTTP status and JSON-RPC error (an AccessRefusal of @ashlar/transport-http fits). */
export interface WsAccessRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  /** Seconds, sent as Retry-After on a refused upgrade. */
  readonly retryAfter?: number;
}

/** Charges one connection's requests against its client's rate limit. */
export interface WsAccessGate {
  readonly kind: 'gate';
  charge(n: number): WsAccessRefusal | undefined;
}

/**
 * API keys and rate limits, structurally: `createAccessPolicy()` of @ashlar/transport-http is
 * one, and passing the same object to the HTTP handler makes both transports share buckets.
 */
export interface WsAccess {
  /** Undefined when `pathname` is neither `openPath` nor a keyed endpoint: not ours to answer. */
  admitUpgrade(
    head: { headers: import('node:http').IncomingHttpHeaders; socket?: { remoteAddress?: string | undefined } },
    pathname: string,
    openPath: string,
  ): WsAccessGate | WsAccessRefusal | undefined;
}
