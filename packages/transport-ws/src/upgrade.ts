import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** The request's path without its query, trailing slash dropped (as options.path is normalised). */
export function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const p = q === -1 ? raw : raw.slice(0, q);
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/**
 * Is this upgrade ours? Only WebSocket upgrades to our path: anything else stays untouched for
 * the server's other 'upgrade' listeners (a dev server's hot reload, another WebSocket app).
 */
export function ownsUpgrade(req: IncomingMessage, path: string): boolean {
  return isWebSocketUpgrade(req) && pathOf(req.url) === path;
}

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return req.headers.upgrade?.toLowerCase() === 'websocket';
}

/** Answers an upgrade we will not accept with a plain HTTP response whose body is a JSON-RPC error. */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  code: number,
  message: string,
  retryAfter?: number,
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  if (retryAfter !== undefined) lines.push(`Retry-After: ${retryAfter}`);
  const head = lines.join('\r\n');
  // The peer may already be gone; a failed write must not become an uncaught error.
  socket.on('error', () => {});
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * An upgrade nobody here serves: 400 at once and the socket closed, as Anvil and Hardhat do.
 * Left alone, Node hands the socket to no one and it stays open until the client leaves.
 */
export function refuseUnserved(req: IncomingMessage, socket: Duplex, path: string): void {
  const protocol = String(req.headers.upgrade ?? '').slice(0, 32);
  const message = isWebSocketUpgrade(req)
    ? `no WebSocket endpoint at ${JSON.stringify(pathOf(req.url).slice(0, 64))}: JSON-RPC over WebSocket is served at ${path}`
    : `unsupported upgrade ${JSON.stringify(protocol)}: this server upgrades only to websocket, at ${path}`;
  refuseUpgrade(socket, 400, -32600, message);
}
