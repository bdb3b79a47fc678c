import type { ResolvedHttpOptions } from './options.js';

export type HeaderMap = Readonly<Record<string, string>>;

export interface CorsPolicy {
  /** Headers to add to an ordinary response, or undefined for none. Returns shared objects: never mutate. */
  headersFor(origin: string | undefined): HeaderMap | undefined;
  /** Headers of the answer to a preflight (OPTIONS) request. */
  preflight(origin: string | undefined, requestedHeaders: string | undefined): HeaderMap;
}

const ALLOW_METHODS = 'GET, HEAD, POST, OPTIONS';
// geth caches preflights for 10 minutes too.
const MAX_AGE = '600';
// Echo requested header names only when they look like header names; anything else falls back.
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

function allowedHeaders(requested: string | undefined): string {
  return requested !== undefined && HEADER_LIST.test(requested) ? requested : 'Content-Type';
}

const NONE: HeaderMap = Object.freeze({ allow: ALLOW_METHODS });
const ANY: HeaderMap = Object.freeze({ 'access-control-allow-origin': '*' });

/**
 * Builds the CORS policy once. Any-origin answers with one shared header object (the hot path
 * allocates nothing for CORS); an allow-list echoes the matching origin and adds `Vary: Origin`
 * so caches keep per-origin answers apart.
 */
export function createCorsPolicy(cors: ResolvedHttpOptions['cors']): CorsPolicy {
  if (cors === false) {
    return {
      headersFor: () => undefined,
      // Without CORS an OPTIONS request still gets an honest answer, just no grant.
      preflight: () => NONE,
    };
  }
  if (cors === '*') {
    return {
      headersFor: () => ANY,
      preflight: (_origin, requested) => ({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': allowedHeaders(requested),
        'access-control-max-age': MAX_AGE,
      }),
    };
  }
  const allowed = new Set(cors);
  const vary: HeaderMap = Object.freeze({ vary: 'Origin' });
  const perOrigin = new Map<string, HeaderMap>();
  for (const origin of allowed) {
    perOrigin.set(origin, Object.freeze({ 'access-control-allow-origin': origin, vary: 'Origin' }));
  }
  return {
    headersFor: (origin) => (origin !== undefined && perOrigin.get(origin)) || vary,
    preflight: (origin, requested) =>
      origin !== undefined && allowed.has(origin)
        ? {
            'access-control-allow-origin': origin,
            'access-control-allow-methods': ALLOW_METHODS,
            'access-control-allow-headers': allowedHeaders(requested),
            'access-control-max-age': MAX_AGE,
            vary: 'Origin',
          }
        : vary,
  };
}
