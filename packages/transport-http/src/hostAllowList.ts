import { isIP } from 'node:net';

/**
 * Which `Host` headers a node answers (geth's `--http.vhosts`): a web page on another domain can
 * point its own name at 127.0.0.1 (DNS rebinding) and then call the node as a same-origin
 * request, where CORS does not apply. Its requests still carry that domain in `Host`, so a node
 * that answers only names it was told about cannot be driven that way. As geth: a request
 * without `Host` passes (browsers always send one), an IP literal passes (a rebinding page can
 * only send a name), `*` turns the check off.
 */
export type HostCheck = (host: string | undefined) => string | undefined;

/** The names every node answers to: what a developer types to reach a local node. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = Object.freeze(['localhost']);

// Host headers already accepted, verbatim: the check on the hot path is one Set lookup.
// Bounded, because every port of an IP literal is a new accepted spelling.
const MAX_CACHED = 1024;

/** The host part of a Host header: `[::1]:8545` → `::1`, `Example.com:80` → `example.com`. */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return (end === -1 ? host.slice(1) : host.slice(1, end)).toLowerCase();
  }
  const colon = host.indexOf(':');
  // More than one colon without brackets: a bare IPv6 literal, not host:port.
  if (colon !== -1 && host.indexOf(':', colon + 1) === -1) return host.slice(0, colon).toLowerCase();
  return host.toLowerCase();
}

/**
 * Builds the check once: it answers undefined for an allowed `Host`, else the refusal's message.
 * `allowed`: extra host names (case-insensitive, without port); `*` among them allows any.
 * `localhost` is always allowed, and so are IP literals.
 */
export function createHostCheck(allowed: readonly string[] = []): HostCheck {
  const names = new Set([...DEFAULT_ALLOWED_HOSTS, ...allowed.map((h) => hostnameOf(h.trim()))]);
  if (names.has('*')) return () => undefined;
  const accepted = new Set<string>();
  return (host) => {
    if (host === undefined || host === '' || accepted.has(host)) return undefined;
    const name = hostnameOf(host);
    if (!names.has(name) && isIP(name) === 0) return invalidHostMessage(host);
    if (accepted.size < MAX_CACHED) accepted.add(host);
    return undefined;
  };
}

/** The refusal's message: names the host (cut short: it is the client's text) and the option. */
export function invalidHostMessage(host: string): string {
  const shown = host.length > 64 ? `${host.slice(0, 64)}…` : host;
  return `invalid host specified: ${JSON.stringify(shown)} is not an allowed Host (allowedHosts, --allowed-hosts)`;
}
