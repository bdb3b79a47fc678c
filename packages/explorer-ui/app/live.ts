// New blocks pushed by the node: one `eth_subscribe("newHeads")` over the node's own WebSocket
// (same host and port), shared by every live list. Polling stays as the fallback: a revert or a
// reset sends no new head, and the socket may be refused (limits, keys) or drop.

type Listener = () => void;

const listeners = new Set<Listener>();
let socket: WebSocket | undefined;
let failures = 0;

function connect(): void {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`);
  socket = ws;
  ws.onopen = () => {
    failures = 0;
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
  };
  ws.onmessage = (e) => {
    let m: { method?: string } | undefined;
    try {
      m = JSON.parse(String(e.data)) as { method?: string };
    } catch {
      return;
    }
    if (m?.method === 'eth_subscription') for (const l of listeners) l();
  };
  ws.onclose = () => {
    socket = undefined;
    // Back off up to 30 s; nobody listening, nobody reconnects.
    if (listeners.size > 0)
      setTimeout(() => listeners.size > 0 && !socket && connect(), Math.min(30_000, 1000 * 2 ** failures++));
  };
}

/** Calls `listener` on every new block; returns the unsubscribe. */
export function onNewHead(listener: Listener): () => void {
  listeners.add(listener);
  if (!socket) connect();
  return () => {
    listeners.delete(listener);
  };
}
