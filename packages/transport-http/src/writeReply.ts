import type { ServerResponse } from 'node:http';
import type { HttpReply } from './replies.js';

/**
 * Writes a reply to a Node ServerResponse in one writeHead + end: an explicit Content-Length
 * keeps the answer un-chunked and the connection reusable (keep-alive). HEAD responses get the
 * same headers; Node itself drops the body.
 */
export function writeReply(res: ServerResponse, reply: HttpReply): void {
  if (res.headersSent || res.destroyed) return;
  if (reply.status === 204) {
    // No Content-Length on 204 (RFC 9110 §8.6).
    res.writeHead(204, reply.cors ? { ...reply.headers, ...reply.cors } : reply.headers);
    res.end();
    return;
  }
  const length = Buffer.byteLength(reply.body);
  res.writeHead(
    reply.status,
    reply.cors
      ? { ...reply.headers, ...reply.cors, 'content-length': length }
      : { ...reply.headers, 'content-length': length },
  );
  res.end(reply.body);
}

const FALLBACK_BODY = JSON.stringify({ message: 'Internal server error' });

/** Last resort when writing the reply itself failed (e.g. a route handler set an invalid header). */
export function writeFallback(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  try {
    res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(FALLBACK_BODY) });
    res.end(FALLBACK_BODY);
  } catch {
    res.destroy();
  }
}
