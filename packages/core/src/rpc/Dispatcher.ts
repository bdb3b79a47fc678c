import { AshlarError, isAshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { toRpcError } from '../errors/toRpcError.js';
import type { MethodRegistry } from './MethodRegistry.js';
import type { JsonRpcResponse, RpcContext, RpcEngine } from './types.js';

export interface DispatcherOptions {
  /** Most requests in one batch (default 1000). */
  maxBatchSize: number;
  /** Called with errors that are not the caller's fault (bugs, storage failures). */
  onInternalError?: (method: string, error: unknown) => void;
}

type Id = string | number | null;

const failure = (id: Id, code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

function validId(id: unknown): id is Id {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** The only owner of the JSON-RPC envelope: ids, batches, notifications and error mapping. */
export class Dispatcher implements RpcEngine {
  constructor(
    private readonly methods: MethodRegistry,
    private readonly baseContext: () => RpcContext,
    private readonly options: DispatcherOptions,
  ) {}

  async handle(payload: unknown, ctx?: Partial<RpcContext>): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (Array.isArray(payload)) {
      if (payload.length === 0) return failure(null, -32600, 'empty batch');
      if (payload.length > this.options.maxBatchSize) {
        return failure(
          null,
          -32600,
          `batch too large: ${payload.length} requests, limit is ${this.options.maxBatchSize}`,
        );
      }
      const out: JsonRpcResponse[] = [];
      // In order: a batch of transactions from one sender must see each other's nonces.
      for (const item of payload) {
        const r = await this.one(item, ctx);
        if (r !== undefined) out.push(r);
      }
      return out.length > 0 ? out : undefined;
    }
    return this.one(payload, ctx);
  }

  /** Runs a method by name with positional params; throws AshlarError-shaped errors (used by kernel.request). */
  async call(method: string, params: unknown, ctx?: Partial<RpcContext>): Promise<unknown> {
    const def = this.methods.get(method);
    if (!def)
      throw new AshlarError(ErrorCodes.METHOD_NOT_FOUND, `the method ${method} does not exist/is not available`);
    let list: unknown[];
    if (params === undefined || params === null) list = [];
    else if (Array.isArray(params)) list = params;
    else throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'invalid params: expected an array of positional parameters');
    const parsers = def.params;
    if (list.length > parsers.length) {
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, `too many arguments, want at most ${parsers.length}`);
    }
    const parsed: unknown[] = new Array(parsers.length);
    for (let i = 0; i < parsers.length; i++) {
      const p = parsers[i];
      const v = list[i];
      if (v === undefined && !p.optional) {
        throw new AshlarError(ErrorCodes.INVALID_PARAMS, `missing value for required argument ${i} (${p.name})`);
      }
      parsed[i] = p.parse(v, i);
    }
    const context: RpcContext = ctx ? { ...this.baseContext(), ...ctx } : this.baseContext();
    // biome-ignore lint/suspicious/noExplicitAny: parsed params are typed by the definition's parsers
    return def.handler(context, parsed as any);
  }

  private async one(req: unknown, ctx?: Partial<RpcContext>): Promise<JsonRpcResponse | undefined> {
    if (typeof req !== 'object' || req === null || Array.isArray(req)) {
      return failure(null, -32600, 'invalid request: expected a JSON-RPC request object');
    }
    const r = req as Record<string, unknown>;
    const hasId = 'id' in r;
    const id: Id = hasId && validId(r.id) ? r.id : null;
    if (hasId && !validId(r.id)) return failure(null, -32600, 'invalid request: id must be a string, a number or null');
    if (r.jsonrpc !== '2.0') return failure(id, -32600, 'invalid request: "jsonrpc" must be "2.0"');
    if (typeof r.method !== 'string') return failure(id, -32600, 'invalid request: "method" must be a string');
    try {
      const result = await this.call(r.method, r.params, ctx);
      if (!hasId) return undefined;
      return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (e) {
      if (!isAshlarError(e)) this.options.onInternalError?.(r.method, e);
      if (!hasId) return undefined;
      const err = toRpcError(e);
      return failure(id, err.code, err.message, err.data);
    }
  }
}
