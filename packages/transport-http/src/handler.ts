import type { IncomingMessage, ServerResponse } from 'node:http';
import { createDispatcher, type Dispatcher } from './dispatcher.js';
import type { HttpHandlerOptions, HttpTarget } from './options.js';
import type { HttpReply } from './replies.js';
import type { BodySource, Match } from './request.js';
import { writeFallback, writeReply } from './writeReply.js';

/** `next` as connect and express pass it. */
export type NextFunction = (err?: unknown) => void;

/** A Node request listener that also works as connect/express middleware when given `next`. */
export type HttpRequestListener = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

/** Chooses where a request's body comes from: the stream, unless an adapter has a parsed body. */
export type BodyChooser = (req: IncomingMessage) => BodySource;

const fromStream: BodyChooser = (req) => ({ kind: 'stream', stream: req });

/** Shared by the plain listener and the express adapter: they differ only in how the body is found. */
export function createListener(dispatcher: Dispatcher, chooseBody: BodyChooser): HttpRequestListener {
  const { onError, afterReply } = dispatcher.options;

  /** `arrived`: performance.now() when the request reached the listener (0 where nobody asks: no afterReply). */
  const send = (res: ServerResponse, reply: HttpReply | undefined, arrived: number): void => {
    if (reply === undefined) return;
    try {
      writeReply(res, reply);
    } catch (err) {
      onError(err);
      writeFallback(res);
    }
    if (afterReply === undefined) return;
    try {
      afterReply(performance.now() - arrived);
    } catch (err) {
      onError(err);
    }
  };

  const run = (req: IncomingMessage, res: ServerResponse, m: Match): void => {
    const arrived = afterReply === undefined ? 0 : performance.now();
    dispatcher.serve(req, m, chooseBody(req)).then(
      (reply) => send(res, reply, arrived),
      // serve() does not reject; this only guards the guarantee that the listener never throws.
      (err: unknown) => {
        onError(err);
        writeFallback(res);
      },
    );
  };

  return (req, res, next) => {
    const m = dispatcher.match(req.url);
    if (m !== undefined) {
      run(req, res, m);
    } else if (next !== undefined) {
      next();
    } else {
      send(res, dispatcher.notFound(req), afterReply === undefined ? 0 : performance.now());
    }
  };
}

/**
 * Serves JSON-RPC (POST at `options.path`) and REST routes (under `options.explorerPrefix`)
 * from a plain Node HTTP server, or as connect/express middleware: with `next`, URLs it does not
 * own pass on instead of getting a 404.
 *
 * @example
 * http.createServer(createHttpHandler({ engine: kernel, routes: kernel.routes })).listen(8545);
 */
export function createHttpHandler(target: HttpTarget, options?: HttpHandlerOptions): HttpRequestListener {
  return createListener(createDispatcher(target, options), fromStream);
}
