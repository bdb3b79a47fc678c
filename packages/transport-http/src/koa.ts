import type { IncomingMessage } from 'node:http';
import { createDispatcher } from './dispatcher.js';
import type { HttpHandlerOptions, HttpTarget } from './options.js';
import { type HttpReply, restReplies, rpcReplies } from './replies.js';
import type { BodySource } from './request.js';

/**
 * The parts of a koa 3 context used here, typed structurally so the package does not depend on
 * koa. `request` stays `object`: its `body` exists only when a body parser added it.
 */
export interface KoaContextLike {
  req: IncomingMessage;
  url: string;
  method: string;
  request: object;
  status: number;
  body: unknown;
  respond?: boolean;
  set(field: Record<string, string>): void;
}

export type KoaMiddleware = (ctx: KoaContextLike, next: () => Promise<unknown>) => Promise<void>;

/** As in the express adapter: a drained stream means a body parser (koa-bodyparser) holds the body. */
function chooseBody(ctx: KoaContextLike): BodySource {
  if (ctx.req.readableEnded) return { kind: 'parsed', value: (ctx.request as { body?: unknown }).body };
  return { kind: 'stream', stream: ctx.req };
}

function apply(ctx: KoaContextLike, reply: HttpReply): void {
  ctx.status = reply.status;
  // Headers before the body: koa guesses a text content type for strings unless one is set.
  ctx.set(reply.headers);
  if (reply.cors) ctx.set(reply.cors);
  ctx.body = reply.status === 204 ? null : reply.body;
}

/**
 * Mounts the node in a koa 3 app: `app.use(koaMiddleware(target))`. Answers through ctx.status,
 * headers and ctx.body (not the raw response), so koa's own middleware still sees the answer;
 * URLs it does not own go to `next()`.
 */
export function koaMiddleware(target: HttpTarget, options?: HttpHandlerOptions): KoaMiddleware {
  const dispatcher = createDispatcher(target, options);
  return async (ctx, next) => {
    const m = dispatcher.match(ctx.url);
    if (m === undefined) {
      await next();
      return;
    }
    const reply = await dispatcher.serve(ctx.req, m, chooseBody(ctx));
    if (reply === undefined) {
      // The client is gone; let koa skip writing to a dead socket.
      ctx.respond = false;
      return;
    }
    try {
      apply(ctx, reply);
    } catch (err) {
      // e.g. a route handler set a header value koa refuses: answer 500 instead of koa's text error.
      dispatcher.options.onError(err);
      apply(ctx, m.kind === 'rpc' ? rpcReplies.internal() : restReplies.internal());
    }
  };
}
