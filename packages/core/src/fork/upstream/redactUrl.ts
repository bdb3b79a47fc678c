/**
 * The upstream URL as it may appear in logs and error messages: without user and password, without
 * the query (providers put keys there: `?apikey=…`), and with path segments that look like API keys
 * (Infura's `/v3/<32 hex>`, Alchemy's `/v2/<key>`: 20 or more letters, digits, `-` or `_` that mix
 * letters and digits) replaced by `***`.
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '<invalid url>';
  }
  const path = url.pathname
    .split('/')
    .map((segment) => (looksLikeSecret(segment) ? '***' : segment))
    .join('/');
  return `${url.protocol}//${url.host}${path}${url.search === '' ? '' : '?***'}`;
}

function looksLikeSecret(segment: string): boolean {
  return segment.length >= 20 && /^[A-Za-z0-9_-]+$/.test(segment) && /\d/.test(segment) && /[A-Za-z]/.test(segment);
}
