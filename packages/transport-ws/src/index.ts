/**
 * @ashlar/transport-ws — serves an Ashlar node (or any RpcEngine) over WebSocket on an existing
 * HTTP server's 'upgrade' event: every JSON-RPC method and batch, plus eth_subscribe
 * notifications, with limits on connections, subscriptions, frame size and send backlog.
 */
export { attachWebSocket, type WebSocketEndpoint, type WebSocketStats } from './attachWebSocket.js';
export type { RpcConnection, WsAccess, WsAccessGate, WsAccessRefusal, WsLogger } from './coreTypes.js';
export {
  DEFAULT_FLUSH_INTERVAL_MS,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_PINGS_PER_SECOND,
  DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION,
  type WebSocketOptions,
  type WebSocketTarget,
} from './options.js';
