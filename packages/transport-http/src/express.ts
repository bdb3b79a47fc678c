import type { IncomingMessage, ServerResponse } from 'node:http';
import { createDispatcher } from './dispatcher.js';
import { type BodyChooser, createListener, type NextFunction } from './handler.js';
import type { HttpHandlerOptions, HttpTarget } from './options.js';

/** express 5 / connect middleware; `req.body` is whatever a body parser left there, if any ran. */
export type ExpressMiddleware = (
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  next: NextFunction,
) => void;

/**
 * A body parser that ran (express.json(), body-parser) has drained the stream, so its result is
 * the only copy of the body. While the stream is unread it is the ground truth: body-parser 1
 * sets `req.body = {}` even for requests it skips, so an object there proves nothing.
 */
const chooseBody: BodyChooser = (req) =>
  req.readableEnded
    ? { kind: 'parsed', value: (req as IncomingMessage & { body?: unknown }).body }
    : { kind: 'stream', stream: req };

/**
 * Mounts the node in an express 5 or connect app: `app.use(expressMiddleware(target))`. Works
 * with or without `express.json()` in front; URLs it does not own go to `next()`. Note that a
 * body parser placed in front answers malformed JSON itself (HTTP 400), before this runs.
 */
export function expressMiddleware(target: HttpTarget, options?: HttpHandlerOptions): ExpressMiddleware {
  const listener = createListener(createDispatcher(target, options), chooseBody);
  return (req, res, next) => listener(req, res, next);
}
