import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/** The parts of a request the transport reads; Node's IncomingMessage is one. */
export interface RequestHead {
  method?: string | undefined;
  url?: string | undefined;
  headers: IncomingHttpHeaders;
  /** The connection, for the client address of per-client rate limits. */
  socket?: { readonly remoteAddress?: string | undefined } | undefined;
}

/**
 * Where the body comes from: the raw stream (read and parsed here, with the size limit), or a
 * value a framework's body parser already produced (frameworks often parse JSON first).
 */
export type BodySource =
  | { readonly kind: 'stream'; readonly stream: Readable }
  | { readonly kind: 'parsed'; readonly value: unknown };

/** Which part of the transport owns a URL. */
export type Match =
  /** `key`: the keyed endpoint's key index (-1 for an unknown key); absent on the open endpoint. */
  | { readonly kind: 'rpc'; readonly key?: number }
  | { readonly kind: 'rest'; readonly pathname: string; readonly search: string };

/** The error's message without its stack: safe to send to a client. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
