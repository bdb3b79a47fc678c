import { AshlarError, ErrorCodes, type RpcContext } from '@ashlar/core';

/** A transport connection that can carry notifications (a WebSocket, the in-process provider). */
export type NotifyingConnection = Required<NonNullable<RpcContext['connection']>>;

/** The JSON-RPC notification geth sends for every subscription event. */
export interface SubscriptionNotification {
  jsonrpc: '2.0';
  method: 'eth_subscription';
  params: { subscription: string; result: unknown };
}

/**
 * One subscription's outbox. It starts held: events that happen before the client has its
 * subscription id are queued, then flushed by `activate()`, so no notification can overtake
 * the eth_subscribe answer that tells the client which id to listen for.
 */
export class Subscription {
  private held: unknown[] | undefined = [];
  private live = true;

  constructor(
    readonly id: string,
    private readonly connection: NotifyingConnection,
  ) {}

  notify(result: unknown): void {
    if (!this.live) return;
    if (this.held) this.held.push(result);
    else this.deliver(result);
  }

  activate(): void {
    const held = this.held;
    this.held = undefined;
    if (!this.live || !held) return;
    for (const r of held) this.deliver(r);
  }

  stop(): void {
    this.live = false;
    this.held = undefined;
  }

  private deliver(result: unknown): void {
    const message: SubscriptionNotification = {
      jsonrpc: '2.0',
      method: 'eth_subscription',
      params: { subscription: this.id, result },
    };
    this.connection.send(message);
  }
}

/**
 * The caller's connection, if it can carry notifications. HTTP cannot: geth answers
 * `-32601 notifications not supported` there, and so do we.
 */
export function notifyingConnection(ctx: RpcContext): NotifyingConnection {
  const c = ctx.connection;
  if (c?.send === undefined || c.onClose === undefined) {
    throw new AshlarError(ErrorCodes.METHOD_NOT_FOUND, 'notifications not supported');
  }
  return c as NotifyingConnection;
}
