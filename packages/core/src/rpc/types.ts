import type { KernelServices } from '../kernel/services.js';

/** Turns one positional wire value into a typed value, or throws invalidParams naming `name`. */
export interface ParamParser<T> {
  /** Parameter name used in error messages ("invalid argument 0 (address): …"). */
  readonly name: string;
  /** True when the parameter may be omitted (then parse receives undefined). */
  readonly optional: boolean;
  parse(value: unknown, index: number): T;
}

/** The context a handler gets: its kernel's services and, when known, the transport's caller info. */
export interface RpcContext {
  /** The services of the kernel the method runs in (chain, mempool, miner, executor, …; see KernelServices). */
  services: KernelServices;
  /** Transport-specific connection info (e.g. a WS connection id) for stateful methods. */
  connection?: { id: string; send?: (message: unknown) => void; onClose?: (fn: () => void) => void };
}

type ParsedTuple<P extends readonly ParamParser<unknown>[]> = {
  -readonly [K in keyof P]: P[K] extends ParamParser<infer T> ? T : never;
};

export interface RpcMethodDefinition<
  P extends readonly ParamParser<unknown>[] = readonly ParamParser<unknown>[],
  R = unknown,
> {
  name: string;
  /** Other spellings of the same method (hardhat_mine / anvil_mine). */
  aliases?: readonly string[];
  params: P;
  handler(ctx: RpcContext, params: ParsedTuple<P>): R | Promise<R>;
}

/** Declares one RPC method; parsers run before the handler, so handlers never see raw JSON. */
export function defineRpcMethod<const P extends readonly ParamParser<unknown>[], R>(
  def: RpcMethodDefinition<P, R>,
): RpcMethodDefinition<readonly ParamParser<unknown>[], R> {
  return def as unknown as RpcMethodDefinition<readonly ParamParser<unknown>[], R>;
}

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  method: string;
  params?: unknown[] | Record<string, unknown>;
  id?: string | number | null;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: string | number | null;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/**
 * What a transport needs: hand over a parsed body (object or array), get the response
 * (object, array, or undefined when the body held only notifications).
 */
export interface RpcEngine {
  handle(payload: unknown, ctx?: Partial<RpcContext>): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>;
  /**
   * The JSON text of answers `handle` returned, when the engine already made it (a batch it
   * serialised to check its size); undefined otherwise. Equal to JSON.stringify(answers).
   */
  jsonOf?(answers: unknown): string | undefined;
  /**
   * Registers what a transport attached to this engine (a WebSocket endpoint and its
   * connections, an HTTP handler's requests in flight, a whole server) to be closed when the
   * engine closes, so the engine and its transports may close in either order. Answers a
   * function that unregisters the hook (for a transport closed first). See EngineCloseHook.
   */
  onClose?(hook: EngineCloseHook): () => void;
}

/**
 * Runs when the engine closes: every call already answers `refusal` (the kernel's
 * ASHLAR_ERR_KERNEL_CLOSED as a JSON-RPC error). The kernel awaits every hook, after refusing
 * new requests and before its plugins and storage close, so answers in flight can still go out;
 * a hook bounds its own wait. A hook registered on an engine already closed runs at once.
 */
export type EngineCloseHook = (refusal: { code: number; message: string }) => void | Promise<void>;
