import { AshlarError, isAshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { domainCodeOf, toRpcError } from '../errors/toRpcError.js';
import { batchCostOf } from './batchCost.js';
import type { MethodRegistry } from './MethodRegistry.js';
import type { JsonRpcResponse, RpcContext, RpcEngine } from './types.js';
import type { RequestActivity } from '../kernel/RequestActivity.js';

export interface DispatcherOptions {
  /** Most requests in one batch (default 1000). */
  maxBatchSize: number;
  /** Most bytes of JSON one batch may answer; past it the remaining requests get -32003 (0 = none). */
  maxResponseBytes?: number;
  /** Cost units one batch may spend (batchCost.ts); past it the remaining requests get -32005 (0 = none). */
  batchCostBudget?: number;
  /** Called with errors that are not the caller's fault (bugs, storage failures). */
  onInternalError?: (method: string, error: unknown) => void;
  /** Counts every request run (see RequestActivity). */
  activity?: RequestActivity;
}

type Id = string | number | null;

/** Longest stretch a batch runs before it lets other clients in. */
const BATCH_SLICE_MS = 20;

const failure = (id: Id, code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

function validId(id: unknown): id is Id {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** Echoed client text, cut to a prefix: a 1 MB method name must not come back whole. */
function shortened(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

// Where @ethereumjs appends its own state to a message: ` (vm hf=…`, ` -> block number=…`,
// ` (tx type=… hash=…`, ` (block number=…`. Nothing after them helps a client.
const ENGINE_DUMP = / \((?:vm hf=|tx type=\d|block number=)| -> (?:block|tx) /;
/** Longest error message answered; the rest is cut (long revert strings stay whole in `data`). */
const MAX_MESSAGE = 4096;

/** An error message fit to send: without the engine's internal dumps, and of bounded length. */
export function publicMessage(message: string): string {
  const cut = message.search(ENGINE_DUMP);
  const clean = cut === -1 ? message : message.slice(0, cut);
  return shortened(clean, MAX_MESSAGE);
}

/** The answer of a batch request that was not run: the error under its id (none for a notification). */
function skippedAnswer(item: unknown, error: { code: number; message: string }): JsonRpcResponse | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return failure(null, -32600, 'invalid request');
  const r = item as Record<string, unknown>;
  if (!('id' in r)) return undefined;
  return failure(validId(r.id) ? r.id : null, error.code, error.message);
}

/** The only owner of the JSON-RPC envelope: ids, batches, notifications and error mapping. */
/** The JSON text of each answer of a batch, kept when the size check already made it. */
const batchTexts = new WeakMap<JsonRpcResponse[], string[]>();

/**
 * The JSON text of a batch's answers when the dispatcher already serialised them (to check the
 * batch's size against maxResponseBytes), so a transport need not do it again; else undefined.
 * Equal to JSON.stringify(answers).
 */
export function batchJsonOf(answers: unknown): string | undefined {
  if (!Array.isArray(answers)) return undefined;
  const texts = batchTexts.get(answers as JsonRpcResponse[]);
  return texts && texts.length === answers.length ? `[${texts.join(',')}]` : undefined;
}

export class Dispatcher implements RpcEngine {
  /** Set once the kernel closes: every call after it fails with this error, before any handler runs. */
  private refusal?: AshlarError;

  constructor(
    private readonly methods: MethodRegistry,
    private readonly baseContext: () => RpcContext,
    private readonly options: DispatcherOptions,
  ) {}

  // Not async, here and in `call`: an async method returning another promise settles extra
  // microtask turns after it (each request went through two such hops).
  handle(payload: unknown, ctx?: Partial<RpcContext>): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (Array.isArray(payload)) {
      if (payload.length === 0) return Promise.resolve(failure(null, -32600, 'empty batch'));
      if (payload.length > this.options.maxBatchSize) {
        return Promise.resolve(
          failure(null, -32600, `batch too large: ${payload.length} requests, limit is ${this.options.maxBatchSize}`),
        );
      }
      return this.batch(payload, ctx);
    }
    return this.one(payload, ctx);
  }

  /**
   * In order: a batch of transactions from one sender must see each other's nonces. Two
   * ceilings keep one POST from holding the node (issue #20): the answers' size (geth's
   * `--rpc.batch-response-max-size`) and a cost budget where traces, dumps and wide queries
   * count for more. Once either is passed, every remaining request gets an error naming it.
   */
  private async batch(payload: unknown[], ctx?: Partial<RpcContext>): Promise<JsonRpcResponse[] | undefined> {
    const maxBytes = this.options.maxResponseBytes ?? 0;
    const budget = this.options.batchCostBudget ?? 0;
    const out: JsonRpcResponse[] = [];
    const texts: string[] = [];
    let bytes = 0;
    let spent = 0;
    let stop: { code: number; message: string } | undefined;
    let slice = performance.now();
    for (const item of payload) {
      // Items over in-memory storage resolve in microtasks: without a real yield a batch would
      // hold the event loop from its first item to its last.
      if (performance.now() - slice > BATCH_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      if (stop === undefined && budget > 0) {
        const r = item as Record<string, unknown> | null;
        if (typeof r === 'object' && r !== null && typeof r.method === 'string') {
          spent += batchCostOf(r.method, r.params);
          if (spent > budget) {
            stop = {
              code: -32005,
              message: `batch cost budget exceeded: the batch costs more than ${budget} units (batchCostBudget, --batch-cost-budget); traces count 100, dumps 500, eth_getLogs 10, proofs 1 + keys; send the rest in another batch`,
            };
          }
        }
      }
      if (stop !== undefined) {
        const skipped = skippedAnswer(item, stop);
        if (skipped !== undefined) out.push(skipped);
        continue;
      }
      const r = await this.one(item, ctx);
      if (r === undefined) continue;
      out.push(r);
      if (maxBytes > 0) {
        const text = JSON.stringify(r);
        texts.push(text);
        bytes += text.length;
        if (bytes > maxBytes) {
          stop = {
            code: -32003,
            message: `response too large: the batch's answers passed ${maxBytes} bytes (maxResponseBytes, --max-response-bytes)`,
          };
        }
      }
    }
    if (out.length === 0) return undefined;
    // Every answer was serialised to measure the batch: hand the text on with it (batchJsonOf).
    if (maxBytes > 0 && stop === undefined) batchTexts.set(out, texts);
    return out;
  }

  /** From now on every call fails with `error` (the kernel's ASHLAR_ERR_KERNEL_CLOSED). */
  refuse(error: AshlarError): void {
    this.refusal = error;
  }

  /** Runs a method by name with positional params; throws AshlarError-shaped errors (used by kernel.request). */
  call(method: string, params: unknown, ctx?: Partial<RpcContext>): Promise<unknown> {
    try {
      // A native promise (an async handler's) is handed back as is; a value or a throw is settled.
      return Promise.resolve(this.run(method, params, ctx));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private run(method: string, params: unknown, ctx?: Partial<RpcContext>): unknown {
    if (this.refusal !== undefined) throw this.refusal;
    if (this.options.activity) this.options.activity.count++;
    const def = this.methods.get(method);
    if (!def)
      throw new AshlarError(
        ErrorCodes.METHOD_NOT_FOUND,
        `the method ${shortened(method, 64)} does not exist/is not available`,
      );
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
      // Not list[i] past the end: the optimised code made while every call gave all its params
      // (eth_blockNumber, eth_sendRawTransaction) deoptimised on the first call leaving one out.
      const v = i < list.length ? list[i] : undefined;
      // p.optional read first, for every parameter: read only when one was left out, it had no
      // feedback until a workload's first such call (eth_call without a block) threw `one` away.
      if (!p.optional && v === undefined) {
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
      if (!isAshlarError(e) && domainCodeOf(e) === ErrorCodes.INTERNAL) this.options.onInternalError?.(r.method, e);
      if (!hasId) return undefined;
      const err = toRpcError(e);
      return failure(id, err.code, publicMessage(err.message), err.data);
    }
  }
}
