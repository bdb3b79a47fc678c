import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build -w @ashlar/explorer-ui` writes the app (index.html and assets/). */
export function explorerUiDir(): string {
  // This file is src/serve.ts (sources) or dist/serve.js (built): the package root is one up either way.
  return join(dirname(dirname(fileURLToPath(import.meta.url))), 'dist', 'app');
}

export interface ExplorerUiOptions {
  /** The built app (default: this package's dist/app). */
  dir?: string;
  /** Host header check (DNS rebinding): a message when refused; refused requests are left to the next handler. */
  hostCheck?: (host: string | undefined) => string | undefined;
}

export interface ExplorerUi {
  /**
   * Serves the app when the request is one of its own: `GET`/`HEAD` of `/assets/*`, or a page
   * (`Accept: text/html`) anywhere outside `/api`. Returns false, having written nothing, otherwise.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  map: 'application/json; charset=utf-8',
};

// Everything the app needs comes from this origin; the policy makes the browser hold it to that.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ashlar</title></head><body><main><h1>Explorer UI not built</h1><p>Run <code>npm run build -w @ashlar/explorer-ui</code> and reload. JSON-RPC and <code>/api/v2</code> are served as usual.</p></main></body></html>';

// Asset names are what esbuild writes: no directories, no dots leading anywhere.
const ASSET_NAME = /^\/assets\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/;

function send(res: ServerResponse, status: number, type: string, body: Buffer | string, head: boolean, cache: string) {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    'content-security-policy': CSP,
    'referrer-policy': 'no-referrer',
  });
  res.end(head ? undefined : body);
}

/** The app's request handler; mount it before the JSON-RPC handler (it never touches POSTs). */
export function createExplorerUi(options: ExplorerUiOptions = {}): ExplorerUi {
  const dir = options.dir ?? explorerUiDir();
  const hostCheck = options.hostCheck;

  const serveFile = async (res: ServerResponse, file: string, type: string, head: boolean, cache: string) => {
    try {
      send(res, 200, type, await readFile(join(dir, file)), head, cache);
    } catch {
      if (file === 'index.html') send(res, 503, TYPES.html!, NOT_BUILT, head, 'no-store');
      else send(res, 404, 'text/plain; charset=utf-8', 'not found\n', head, 'no-store');
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const pathname = q === -1 ? raw : raw.slice(0, q);
    const head = method === 'HEAD';
    if (pathname.startsWith('/assets/')) {
      if (hostCheck?.(req.headers.host) !== undefined) return false;
      const m = ASSET_NAME.exec(pathname);
      if (!m) {
        send(res, 404, 'text/plain; charset=utf-8', 'not found\n', head, 'no-store');
        return true;
      }
      const name = m[1]!;
      const ext = name.slice(name.lastIndexOf('.') + 1);
      // Hashed names never change content; the few fixed ones are revalidated.
      const cache = /-[A-Z0-9]{8}\./.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache';
      void serveFile(res, join('assets', name), TYPES[ext] ?? 'application/octet-stream', head, cache);
      return true;
    }
    // /api (Etherscan), /api/v2 and keyed /api/v1/<KEY> stay the API's, whatever the Accept.
    if (pathname === '/api' || pathname.startsWith('/api/')) return false;
    const accept = req.headers.accept;
    if (accept === undefined || !accept.includes('text/html')) return false;
    if (hostCheck?.(req.headers.host) !== undefined) return false;
    void serveFile(res, 'index.html', TYPES.html!, head, 'no-cache');
    return true;
  };

  return { handle };
}
