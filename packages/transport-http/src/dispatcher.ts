import { type CorsPolicy, createCorsPolicy } from './cors.js';
import { CLOSE_GRACE_MS, InFlight } from './inFlight.js';
import {
  type HttpHandlerOptions,
  type HttpTarget,
  ROUTES_BASE,
  type ResolvedHttpOptions,
  resolveOptions,
} from './options.js';
import { type HttpReply, preflightReply, restReplies, rpcReplies } from './replies.js';
import type { BodySource, Match, RequestHead } from './request.js';
import { createRestServer } from './rest.js';
import { createRpcServer } from './rpc.js';

/**
 * The framework-neutral core every adapter shares: decide whether a URL is ours, then turn a
 * request into an HttpReply. Adapters only differ in how they get the body and write the reply.
 */
export interface Dispatcher {
  readonly options: ResolvedHttpOptions;
  readonly cors: CorsPolicy;
  /** What serves this URL, or undefined when it belongs to someone else (next middleware, 404). */
  match(url: string | undefined): Match | undefined;
  /** Never rejects; resolves undefined only when the client left mid-body and nobody is listening. */
  serve(head: RequestHead, match: Match, body: BodySource): Promise<HttpReply | undefined>;
  /** The standalone answer for a URL nobody owns. */
  notFound(head: RequestHead): HttpReply;
}

// Shared: the RPC path is the hot path and matching it should allocate nothing.
const RPC_MATCH: Match = Object.freeze({ kind: 'rpc' });

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export function createDispatcher(target: HttpTarget, options?: HttpHandlerOptions): Dispatcher {
  const resolved = resolveOptions(options);
  const { path, explorerPrefix, maxBodyBytes, onError, rpc } = resolved;
  const cors = createCorsPolicy(resolved.cors);
  const rpcPathSlash = path === '/' ? '/' : `${path}/`;
  const prefixSlash = explorerPrefix === '/' ? '/' : `${explorerPrefix}/`;
  // Mounted elsewhere, the registry's own base is not served at its own path (it would shadow the app's).
  const remounted = explorerPrefix !== ROUTES_BASE;
  const underBase = (pathname: string): boolean => pathname === ROUTES_BASE || pathname.startsWith(`${ROUTES_BASE}/`);
  /** The registry path a URL under the explorer prefix stands for: the prefix swapped for `/api/v2`. */
  const toRegistry = (pathname: string): string => {
    if (!remounted) return pathname;
    const rest = pathname.slice(explorerPrefix === '/' ? 0 : explorerPrefix.length);
    return rest === '' || rest === '/' ? ROUTES_BASE : `${ROUTES_BASE}${rest}`;
  };
  const routes = target.routes;
  // Reporting must not be able to break answering.
  const report = (err: unknown): void => {
    try {
      onError(err);
    } catch {}
  };
  const access = resolved.access;
  const serveRpc = createRpcServer(target.engine, maxBodyBytes, report, access);
  const serveRest = routes ? createRestServer(routes, maxBodyBytes, report) : undefined;

  // One frozen match per key, made on first use: keyed requests allocate no match either.
  const keyMatches: Match[] = [];
  const unknownKey: Match = Object.freeze({ kind: 'rpc', key: -1 });
  const keyMatch = (key: number): Match => {
    if (key === -1) return unknownKey;
    let m = keyMatches[key];
    if (m === undefined) {
      m = Object.freeze({ kind: 'rpc', key });
      keyMatches[key] = m;
    }
    return m;
  };

  const match = (url: string | undefined): Match | undefined => {
    const raw = url ?? '/';
    const q = raw.indexOf('?');
    const pathname = q === -1 ? raw : raw.slice(0, q);
    if (rpc) {
      if (pathname === path || pathname === rpcPathSlash) return RPC_MATCH;
      const key = access?.keyOf(pathname);
      if (key !== undefined) return keyMatch(key);
    }
    if (routes === undefined) return undefined;
    const search = q === -1 ? '' : raw.slice(q + 1);
    // The explorer prefix is ours even where no route matches (its 404 is ours to give).
    if (pathname === explorerPrefix || pathname.startsWith(prefixSlash)) {
      return { kind: 'rest', pathname: toRegistry(pathname), search };
    }
    // Outside it, the registry says which plugin routes exist, except its base when mounted elsewhere.
    if (!(remounted && underBase(pathname)) && routes.owns(pathname)) return { kind: 'rest', pathname, search };
    return undefined;
  };

  // Once the engine has closed (a kernel closed before its server), every answer ends its
  // connection: a keep-alive socket answers what it has in flight (or the kernel's refusal) and
  // then goes, instead of outliving the kernel. The engine's close waits for answers in flight.
  let engineClosed = false;
  const inFlight = new InFlight();
  target.engine.onClose?.(() => {
    engineClosed = true;
    return inFlight.answered(CLOSE_GRACE_MS);
  });

  const { hostCheck } = resolved;
  const serve = async (head: RequestHead, m: Match, body: BodySource): Promise<HttpReply | undefined> => {
    inFlight.start();
    try {
      const reply = await answer(head, m, body);
      if (reply !== undefined && engineClosed) reply.headers = { ...reply.headers, connection: 'close' };
      return reply;
    } finally {
      inFlight.end();
    }
  };

  const answer = async (head: RequestHead, m: Match, body: BodySource): Promise<HttpReply | undefined> => {
    // Before CORS and keys (geth's order): a rebinding page gets nothing, not even a preflight grant.
    const badHost = hostCheck(head.headers.host);
    if (badHost !== undefined) {
      return m.kind === 'rpc' ? rpcReplies.invalidHost(badHost) : restReplies.invalidHost(badHost);
    }
    const origin = head.headers.origin;
    if (head.method === 'OPTIONS') {
      return preflightReply(cors.preflight(origin, headerValue(head.headers['access-control-request-headers'])));
    }
    let reply: HttpReply | undefined;
    try {
      if (m.kind === 'rpc' || serveRest === undefined) {
        // Keys and limits before anything is read: a refused client costs no body parsing.
        const key = m.kind === 'rpc' ? m.key : undefined;
        const refused = access?.admitRpc(head, key, 0);
        reply = refused === undefined ? await serveRpc(head, body, key) : rpcReplies.refused(refused);
      } else {
        const refused = access?.admitRest(head);
        reply =
          refused === undefined ? await serveRest(head, m.pathname, m.search, body) : restReplies.refused(refused);
      }
    } catch (err) {
      // The servers catch their own failures; this is the last line, so the listener never throws.
      report(err);
      reply = m.kind === 'rpc' ? rpcReplies.internal() : restReplies.internal();
    }
    if (reply !== undefined) reply.cors = cors.headersFor(origin);
    return reply;
  };

  const notFound = (head: RequestHead): HttpReply => {
    const reply = restReplies.notFound();
    reply.cors = cors.headersFor(head.headers.origin);
    return reply;
  };

  return { options: { ...resolved, onError: report }, cors, match, serve, notFound };
}
