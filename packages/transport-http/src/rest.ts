import { isJsonContentType } from './contentType.js';
import type { RestRequest, RestResponse, RestRoutes } from './coreTypes.js';
import type { HeaderMap } from './cors.js';
import { BodyTooLargeError, declaredLengthExceeds, readBody } from './readBody.js';
import { type HttpReply, JSON_HEADERS, restReplies } from './replies.js';
import type { BodySource, RequestHead } from './request.js';

export type RestServer = (
  head: RequestHead,
  pathname: string,
  search: string,
  body: BodySource,
) => Promise<HttpReply | undefined>;

type BodyResult = { ok: true; value: unknown } | { ok: false; reply: HttpReply | undefined };

/** Reads a REST POST body: JSON when declared as JSON (or undeclared), text otherwise, undefined when empty. */
async function restBody(head: RequestHead, body: BodySource, maxBodyBytes: number): Promise<BodyResult> {
  if (body.kind === 'parsed') return { ok: true, value: body.value };
  if (declaredLengthExceeds(head.headers['content-length'], maxBodyBytes)) {
    return { ok: false, reply: restReplies.tooLarge(maxBodyBytes) };
  }
  let raw: Buffer;
  try {
    raw = await readBody(body.stream, maxBodyBytes);
  } catch (err) {
    return { ok: false, reply: err instanceof BodyTooLargeError ? restReplies.tooLarge(maxBodyBytes) : undefined };
  }
  if (raw.length === 0) return { ok: true, value: undefined };
  const type = head.headers['content-type'];
  if (type !== undefined && !isJsonContentType(type)) return { ok: true, value: raw.toString('utf8') };
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { ok: false, reply: restReplies.invalidJson() };
  }
}

/** Lower-cases the handler's header names so they override ours instead of duplicating them. */
function mergeHeaders(own: Record<string, string> | undefined): HeaderMap {
  if (own === undefined) return JSON_HEADERS;
  const merged: Record<string, string> = { ...JSON_HEADERS };
  for (const name of Object.keys(own)) merged[name.toLowerCase()] = String(own[name]);
  return merged;
}

/** JSON unless the handler declared another content type for a string body (e.g. CSV export). */
function serialize(response: RestResponse, headers: HeaderMap): string {
  const { body } = response;
  if (body === undefined) return '';
  if (typeof body === 'string' && !(headers['content-type'] ?? '').includes('json')) return body;
  return JSON.stringify(body) ?? '';
}

/**
 * Serves REST routes (the explorer API and plugin routes) from the registry. A throwing handler
 * becomes a bare 500: the message and stack go to onError, never to the client.
 */
export function createRestServer(
  routes: RestRoutes,
  maxBodyBytes: number,
  onError: (err: unknown) => void,
): RestServer {
  return async (head, pathname, search, body) => {
    const method = head.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return restReplies.methodNotAllowed();
    const found = routes.lookup(method, pathname);
    if (found === undefined) return restReplies.notFound();

    let value: unknown;
    if (method === 'POST') {
      const read = await restBody(head, body, maxBodyBytes);
      if (!read.ok) return read.reply;
      value = read.value;
    }
    const request: RestRequest = {
      method,
      path: pathname,
      params: found.params,
      query: new URLSearchParams(search),
      body: value,
    };
    try {
      const response = await found.handler(request);
      const headers = mergeHeaders(response.headers);
      return { status: response.status, headers, body: serialize(response, headers) };
    } catch (err) {
      onError(err);
      return restReplies.internal();
    }
  };
}
