/**
 * @ashlar/transport-http — serves an Ashlar node (or any RpcEngine) over HTTP: JSON-RPC the
 * way geth answers it, plus the REST routes of the explorer API, standalone or inside
 * express, fastify and koa apps.
 */

export { isJsonContentType } from './contentType.js';
export type { RestRoutes } from './coreTypes.js';
export { type ExpressMiddleware, expressMiddleware } from './express.js';
export {
  type FastifyErrorLike,
  type FastifyInstanceLike,
  type FastifyPluginLike,
  type FastifyReplyLike,
  type FastifyRequestLike,
  type FastifyRouteLike,
  fastifyPlugin,
} from './fastify.js';
export { createHostCheck, DEFAULT_ALLOWED_HOSTS, type HostCheck } from './hostAllowList.js';
export { createHttpHandler, type HttpRequestListener, type NextFunction } from './handler.js';
export { type KoaContextLike, type KoaMiddleware, koaMiddleware } from './koa.js';
export {
  type CorsOptions,
  DEFAULT_MAX_BODY_BYTES,
  type HttpHandlerOptions,
  type HttpTarget,
  ROUTES_BASE,
} from './options.js';
export {
  API_KEY_PREFIX,
  type AccessGate,
  type AccessOptions,
  AccessPolicy,
  type AccessRefusal,
  createAccessPolicy,
  RATE_LIMITED_CODE,
  UNAUTHORIZED_CODE,
} from './access/AccessPolicy.js';
export { apiKeyProblem, MIN_API_KEY_LENGTH } from './access/apiKeys.js';
export type { RateLimit } from './access/RateLimiter.js';
