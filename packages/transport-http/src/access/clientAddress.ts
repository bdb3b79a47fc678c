import type { RequestHead } from '../request.js';

/**
 * Who a request comes from, for per-client limits: the socket's peer address, or, behind a
 * reverse proxy (`trustProxy`), the last address in X-Forwarded-For: the one our proxy saw.
 * Entries to its left were written by the client itself and prove nothing.
 */
export function clientAddress(head: RequestHead, trustProxy: boolean): string {
  if (trustProxy) {
    const header = head.headers['x-forwarded-for'];
    const value = Array.isArray(header) ? header[header.length - 1] : header;
    if (value !== undefined && value !== '') {
      const comma = value.lastIndexOf(',');
      const last = (comma === -1 ? value : value.slice(comma + 1)).trim();
      if (last !== '') return last;
    }
  }
  return head.socket?.remoteAddress ?? 'unknown';
}
