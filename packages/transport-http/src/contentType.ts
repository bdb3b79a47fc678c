/**
 * geth accepts JSON-RPC over HTTP only as `application/json` (parameters such as charset
 * allowed); matching that keeps clients that work here working against a real node.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  // Fast path: nearly every client sends exactly one of these two.
  if (header === 'application/json' || header === 'application/json; charset=utf-8') return true;
  const semi = header.indexOf(';');
  const mediaType = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
  return mediaType === 'application/json';
}
