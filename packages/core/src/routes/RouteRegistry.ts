import FindMyWay from 'find-my-way';

export interface RestRequest {
  method: string;
  /** Path below the mount point, e.g. `/api/v2/blocks/12`. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body?: unknown;
}

export interface RestResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (req: RestRequest) => RestResponse | Promise<RestResponse>;

type Method = 'GET' | 'POST';

/**
 * REST routes (the explorer's `/api/v2` and user route plugins) on find-my-way. Transports ask
 * `lookup`; a path nobody registered under a registered prefix gets the prefix's fallback.
 */
export class RouteRegistry {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  private readonly prefixes: { prefix: string; fallback: RouteHandler }[] = [];

  add(method: Method, path: string, handler: RouteHandler): void {
    // find-my-way stores an opaque handler; ours is called by lookup()
    this.router.on(method, path, handler as unknown as FindMyWay.Handler<FindMyWay.HTTPVersion.V1>);
  }

  /** Answers every unmatched path under `prefix` (e.g. Blockscout's 400 for unknown `/api/v2` paths). */
  fallback(prefix: string, handler: RouteHandler): void {
    this.prefixes.push({ prefix, fallback: handler });
  }

  /** True when some route or fallback could answer this path (transports use it to decide who serves). */
  owns(path: string): boolean {
    return this.prefixes.some((p) => path === p.prefix || path.startsWith(`${p.prefix}/`)) || this.hasAnyRoute(path);
  }

  private hasAnyRoute(path: string): boolean {
    return this.router.find('GET', path) !== null || this.router.find('POST', path) !== null;
  }

  lookup(method: string, path: string): { handler: RouteHandler; params: Record<string, string> } | undefined {
    const m = method === 'HEAD' ? 'GET' : method;
    const found = m === 'GET' || m === 'POST' ? this.router.find(m, path) : null;
    if (found) {
      return { handler: found.handler as unknown as RouteHandler, params: found.params as Record<string, string> };
    }
    const p = this.prefixes.find((x) => path === x.prefix || path.startsWith(`${x.prefix}/`));
    return p ? { handler: p.fallback, params: {} } : undefined;
  }
}
