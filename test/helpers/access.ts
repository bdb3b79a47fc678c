/** Shared by the access-* suites: a node served with access options, raw HTTP and WebSocket probes. */
import type { Logger } from '@ashlar/core';
import { createNode, type NodeOptions, type ServerOptions, startServer } from 'ashlar';
import WebSocket from 'ws';

export interface AccessNode {
  url: string;
  wsUrl: string;
  kernel: Awaited<ReturnType<typeof createNode>>;
  /** Every line the node logged (to check that keys never appear). */
  logs: string[];
  close(): Promise<void>;
}

/** A memory node on a free loopback port with the given server (access, tls …) and node options. */
export async function startAccessNode(server: ServerOptions = {}, node: NodeOptions = {}): Promise<AccessNode> {
  const logs: string[] = [];
  const logger: Logger = {
    info: (m) => logs.push(m),
    warn: (m) => logs.push(m),
    error: (m) => logs.push(m),
    debug: (m) => logs.push(m),
  };
  const kernel = await createNode({ logger, ...node });
  const running = await startServer(kernel, { port: 0, ...server });
  return {
    url: running.url,
    wsUrl: running.wsUrl,
    kernel,
    logs,
    async close() {
      await running.close();
      await kernel.close();
    },
  };
}

export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** POSTs a JSON-RPC body (a value, or an array for a batch) and returns the raw reply. */
export async function post(url: string, body: unknown, init: RequestInit = {}): Promise<RawReply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/** Opens a WebSocket; resolves with it once open, or with the HTTP refusal (status and body). */
export function openWs(
  url: string,
  options: WebSocket.ClientOptions = {},
): Promise<{ ws: WebSocket } | { status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    ws.once('error', (e) => reject(e));
  });
}

/** Sends one text frame and resolves with the next message, parsed. */
export function wsAsk(ws: WebSocket, payload: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data))));
    ws.send(JSON.stringify(payload));
  });
}
