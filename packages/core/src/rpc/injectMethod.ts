import { RpcRequestError } from '../errors/RpcRequestError.js';
import type { ParamsOf, ResultOf, RpcMethods } from './methodMap.js';
import type { JsonRpcResponse, RpcEngine } from './types.js';

/** A method's answer as a JSON-RPC client parses it: `result`, or `error` with the wire code. */
export type InjectedRpcResponse<R> =
  | { result: R; error?: undefined }
  | { result?: undefined; error: { code: number; message: string; data?: unknown } };

/** The parameters a call of `N` takes: optional when the method takes none. */
type CallArgs<M, N extends keyof M> = [] extends ParamsOf<M, N> ? [params?: ParamsOf<M, N>] : [params: ParamsOf<M, N>];

/**
 * Calls a JSON-RPC method as a transport would, without a server: the request goes through the
 * kernel's dispatcher in an envelope (parameter parsers, error mapping, size limits), and the
 * answer is JSON round-tripped. Method names, parameters and the result are typed by
 * `RpcMethods` (add yours by declaration merging); for a map of your own, use `methodCaller`.
 */
export async function injectMethod<N extends keyof RpcMethods & string>(
  engine: RpcEngine,
  method: N,
  ...[params]: CallArgs<RpcMethods, N>
): Promise<InjectedRpcResponse<ResultOf<RpcMethods, N>>> {
  return injectWith<RpcMethods, N>(engine, method, params);
}

async function injectWith<M, N extends keyof M & string>(
  engine: RpcEngine,
  method: N,
  params: ParamsOf<M, N> | undefined,
): Promise<InjectedRpcResponse<ResultOf<M, N>>> {
  const answer = (await engine.handle({ jsonrpc: '2.0', id: 1, method, params: params ?? [] })) as JsonRpcResponse;
  const parsed = JSON.parse(JSON.stringify(answer)) as JsonRpcResponse;
  return 'error' in parsed ? { error: parsed.error } : { result: parsed.result as ResultOf<M, N> };
}

/** Typed calls against one kernel: `call` answers the result, or throws the error as a client would see it. */
export interface MethodCaller<M> {
  call<N extends keyof M & string>(method: N, ...params: CallArgs<M, N>): Promise<ResultOf<M, N>>;
  /** The whole answer (`result` or `error`), for tests of error cases. */
  inject<N extends keyof M & string>(
    method: N,
    ...params: CallArgs<M, N>
  ): Promise<InjectedRpcResponse<ResultOf<M, N>>>;
}

/**
 * A typed caller over a method map: `methodCaller(kernel)` knows the built-in methods,
 * `methodCaller<AcmeMethods & RpcMethods>(kernel)` yours too. `call` rejects with an
 * RpcRequestError carrying the wire `code`, `message` and `data`.
 */
export function methodCaller<M = RpcMethods>(engine: RpcEngine): MethodCaller<M> {
  return {
    inject: (method, ...[params]) => injectWith(engine, method, params),
    async call(method, ...[params]) {
      const answer = await injectWith(engine, method, params);
      if (answer.error) throw new RpcRequestError(answer.error.code, answer.error.message, answer.error.data);
      return answer.result as ResultOf<M, typeof method>;
    },
  };
}
