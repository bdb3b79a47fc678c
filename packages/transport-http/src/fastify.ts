import type { IncomingMessage } from 'node:http';
import { API_KEY_PREFIX } from './access/AccessPolicy.js';
import { createDispatcher } from './dispatcher.js';
import type { HttpHandlerOptions, HttpTarget } from './options.js';
import { type HttpReply, JSON_HEADERS, restReplies, rpcErrorBody, rpcReplies } from './replies.js';

/*
 * Structural slices of fastify 5's types, so the package does not depend on fastify. Members
 * are method signatures on purpose: TypeScript compares those bivariantly, which lets the real
 * FastifyInstance, FastifyRequest and FastifyReply fit without importing them.
 */
export interface FastifyRequestLike {
  raw: IncomingMessage;
  url: string;
  body?: unknown;
}

export interface FastifyReplyLike {
  code(statusCode: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload?: unknown): FastifyReplyLike;
}

export interface FastifyErrorLike {
  code?: string;
  statusCode?: number;
  message: string;
}

export interface FastifyRouteLike {
  method: string | string[];
  url: string;
  bodyLimit?: number;
  exposeHeadRoute?: boolean;
  handler(request: FastifyRequestLike, reply: FastifyReplyLike): Promise<unknown>;
  errorHandler?(error: FastifyErrorLike, request: FastifyRequestLike, reply: FastifyReplyLike): unknown;
}

export interface FastifyInstanceLike {
  prefix: string;
  route(options: FastifyRouteLike): unknown;
}

export type FastifyPluginLike = (fastify: FastifyInstanceLike, opts?: unknown) => Promise<void>;

type Kind = 'rpc' | 'rest';

/** Puts a fastify-mounted URL back into the plugin's own space (fastify keeps the register prefix in request.url). */
function stripPrefix(url: string, prefix: string): string {
  if (prefix === '' || !url.startsWith(prefix)) return url;
  const rest = url.slice(prefix.length);
  return rest === '' || rest[0] === '?' ? `/${rest}` : rest;
}

/**
 * A fastify plugin: `await app.register(fastifyPlugin(target))`. It keeps fastify's own JSON
 * body parsing (the handler gets `request.body`) and turns fastify's parser errors (bad JSON,
 * wrong content type, body over the limit) into the same answers the plain handler gives. The
 * REST prefix is served as a whole; plugin routes outside it are not mounted here.
 *
 * Only POST (and OPTIONS, when CORS is on) is claimed at the RPC path, so the app keeps GET `/`
 * for itself; pass `cors: false` to leave OPTIONS to @fastify/cors.
 */
export function fastifyPlugin(target: HttpTarget, options?: HttpHandlerOptions): FastifyPluginLike {
  const dispatcher = createDispatcher(target, options);
  const { path, explorerPrefix, maxBodyBytes, cors, onError } = dispatcher.options;

  const send = (reply: FastifyReplyLike, http: HttpReply): FastifyReplyLike => {
    reply.code(http.status);
    reply.headers(http.headers);
    if (http.cors) reply.headers(http.cors);
    return reply.send(http.status === 204 ? undefined : http.body);
  };

  // fastify parses the body before the handler runs, so its parser failures arrive here.
  const parserFailure = (kind: Kind, error: FastifyErrorLike): HttpReply => {
    const rpc = kind === 'rpc';
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return rpc ? rpcReplies.tooLarge(maxBodyBytes) : restReplies.tooLarge(maxBodyBytes);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return rpc ? rpcReplies.unsupportedMediaType() : restReplies.unsupportedMediaType();
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return rpc ? rpcReplies.parseError('empty request body') : restReplies.invalidJson();
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return rpc ? rpcReplies.parseError('invalid JSON') : restReplies.invalidJson();
    }
    const status = error.statusCode ?? 500;
    if (status >= 500 || status < 400) {
      onError(error);
      return rpc ? rpcReplies.internal() : restReplies.internal();
    }
    const body = rpc ? rpcErrorBody(-32600, error.message) : JSON.stringify({ message: error.message });
    return { status, headers: JSON_HEADERS, body };
  };

  const route = (kind: Kind, url: string, methods: string[], prefix: string): FastifyRouteLike => ({
    method: methods,
    url,
    bodyLimit: maxBodyBytes,
    // HEAD is listed explicitly where wanted; fastify must not add one of its own.
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const head = request.raw;
      const m = dispatcher.match(stripPrefix(request.url, prefix));
      const http =
        m === undefined
          ? dispatcher.notFound(head)
          : // A parsed body cannot be cut short, so serve() always has an answer here.
            ((await dispatcher.serve(head, m, { kind: 'parsed', value: request.body })) ?? rpcReplies.internal());
      return send(reply, http);
    },
    errorHandler: (error, request, reply) => {
      const http = parserFailure(kind, error);
      http.cors = dispatcher.cors.headersFor(request.raw.headers.origin);
      return send(reply, http);
    },
  });

  return async function ashlarHttp(fastify) {
    // fastify keeps the register prefix in request.url; the dispatcher matches without it.
    const prefix = fastify.prefix ?? '';
    const corsMethods = cors === false ? [] : ['OPTIONS'];
    if (dispatcher.options.rpc) {
      fastify.route(route('rpc', path, ['POST', ...corsMethods], prefix));
      // Keyed endpoints (`/api/v1/<KEY>`): the dispatcher checks the key, so one route takes them all.
      if (dispatcher.options.access?.hasKeys) {
        fastify.route(route('rpc', `${API_KEY_PREFIX}:key`, ['POST', ...corsMethods], prefix));
      }
    }
    if (target.routes !== undefined) {
      const methods = ['GET', 'HEAD', 'POST', ...corsMethods];
      fastify.route(route('rest', explorerPrefix, methods, prefix));
      fastify.route(route('rest', `${explorerPrefix === '/' ? '' : explorerPrefix}/*`, methods, prefix));
    }
  };
}
