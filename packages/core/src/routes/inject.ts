import type { RestResponse, RouteRegistry } from './RouteRegistry.js';

export interface InjectedResponse<B = unknown> {
  status: number;
  /** The body as a client would parse it: JSON round-tripped (bigints must already be strings). */
  body: B;
  headers: Record<string, string>;
}

/**
 * Calls a REST route as the HTTP transport would, without a server: for plugin tests.
 * `url` is a path with an optional query (`/api/v2/acme/notes?id=7`); a path no route serves
 * answers 404 `{ message: 'Not found' }`, as the transport does.
 */
export async function injectRoute<B = unknown>(
  routes: RouteRegistry,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<InjectedResponse<B>> {
  const u = new URL(url, 'http://inject.invalid');
  const found = routes.lookup(method, u.pathname);
  const res: RestResponse = found
    ? await found.handler({ method, path: u.pathname, params: found.params, query: u.searchParams, body })
    : { status: 404, body: { message: 'Not found' } };
  return {
    status: res.status,
    body: (res.body === undefined ? undefined : JSON.parse(JSON.stringify(res.body))) as B,
    headers: res.headers ?? {},
  };
}
