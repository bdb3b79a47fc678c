// A minimal keep-alive JSON-RPC client for the bench (fetch keeps connections alive in Node 20).
export function rpcClient(url: string) {
  let id = 0;
  return async function call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
}
