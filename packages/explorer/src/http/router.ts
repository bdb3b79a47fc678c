import type { Logger, RestRequest, RestResponse, RouteRegistry } from '@ashlar/core';
import { HttpError } from './errors.js';

/** A route body: the 200 answer's JSON, or a thrown HttpError (404, 422). */
export type ExplorerHandler = (req: RestRequest) => unknown | Promise<unknown>;

export const PREFIX = '/api/v2';

/**
 * Registers explorer routes under /api/v2. Handlers return the body; this wrapper turns
 * HttpErrors into their answers and anything unexpected into a logged 500 (bad input is
 * always caught earlier, by the parameter parsers, as a 422).
 */
export class ExplorerRouter {
  constructor(
    private readonly routes: RouteRegistry,
    private readonly logger: Logger,
  ) {}

  get(path: string, handler: ExplorerHandler): void {
    this.routes.add('GET', `${PREFIX}${path}`, (req) => this.run(req, handler));
  }

  post(path: string, handler: ExplorerHandler): void {
    this.routes.add('POST', `${PREFIX}${path}`, (req) => this.run(req, handler));
  }

  /** A fixed answer for every method (the not-yet-served families answer 404). */
  fixed(path: string, response: () => RestResponse): void {
    this.routes.add('GET', `${PREFIX}${path}`, response);
    this.routes.add('POST', `${PREFIX}${path}`, response);
  }

  fallback(response: () => RestResponse): void {
    this.routes.fallback(PREFIX, response);
  }

  private async run(req: RestRequest, handler: ExplorerHandler): Promise<RestResponse> {
    try {
      return { status: 200, body: await handler(req) };
    } catch (e) {
      if (e instanceof HttpError) return { status: e.status, body: e.body };
      this.logger.error(`explorer ${req.path} failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
      return { status: 500, body: { message: 'Internal server error' } };
    }
  }
}
