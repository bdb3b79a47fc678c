/** What the framework embedding examples (express.ts, fastify.ts, koa.ts) start. */
export interface EmbeddedNode {
  /** The app's origin (its own routes, such as `/health`). */
  url: string;
  /** JSON-RPC over HTTP. */
  rpcUrl: string;
  /** JSON-RPC over WebSocket, on the same server and path. */
  wsUrl: string;
  /** The explorer API (Blockscout's `/api/v2`), mounted under a prefix. */
  explorerUrl: string;
  /** Closes the WebSocket endpoint, the server and the kernel, in that order. */
  close(): Promise<void>;
}
