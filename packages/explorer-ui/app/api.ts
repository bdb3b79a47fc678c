// Everything the app reads comes from the node that served it: /api/v2, and JSON-RPC on / where
// /api/v2 has nothing equivalent. Relative URLs only, so no request can leave this origin.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** GET a /api/v2 path (with its query) as JSON; non-2xx answers reject with ApiError. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' }, signal });
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    throw new ApiError(res.status, `${path}: not JSON (HTTP ${res.status})`);
  }
  if (!res.ok) {
    const message = (body as { message?: string } | null)?.message ?? `HTTP ${res.status}`;
    throw new ApiError(res.status, message);
  }
  return body as T;
}

/** POST a JSON body to a /api/v2 path; non-2xx answers reject with ApiError. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => null)) as { message?: string } | null;
  if (!res.ok) throw new ApiError(res.status, answer?.message ?? `HTTP ${res.status}`);
  return answer as T;
}

let rpcId = 0;

/** One JSON-RPC call on the node's own endpoint. */
export async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch('/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

/** Adds Blockscout's next_page_params to a path as query parameters. */
export function withParams(path: string, params: Record<string, unknown> | null | undefined): string {
  if (!params) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
  const s = q.toString();
  if (s === '') return path;
  return path + (path.includes('?') ? '&' : '?') + s;
}
