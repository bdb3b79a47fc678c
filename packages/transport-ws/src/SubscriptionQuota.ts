import type { JsonRpcResponse } from './coreTypes.js';

type Id = string | number | null;

/** One message after the quota looked at it. */
export interface Admission {
  /** What goes on to the engine (undefined: nothing; every call was refused). */
  forward: unknown;
  /** Answers for the refused eth_subscribe calls. */
  refused: JsonRpcResponse[];
  /** Request ids of the forwarded eth_subscribe calls, to learn their subscription ids. */
  subscribes: Id[];
  /** Forwarded eth_unsubscribe calls: request id (undefined for a notification) and subscription id. */
  unsubscribes: { id: Id | undefined; subscription: string }[];
}

const keyOf = (id: unknown): string => `${typeof id}:${String(id)}`;

function asCall(item: unknown): Record<string, unknown> | undefined {
  return typeof item === 'object' && item !== null && !Array.isArray(item)
    ? (item as Record<string, unknown>)
    : undefined;
}

/**
 * Counts a connection's live subscriptions from the JSON-RPC traffic itself (eth_subscribe
 * answers add, eth_unsubscribe answers remove), so the limit holds whatever engine answers.
 * Calls in flight count too: a burst of eth_subscribe cannot overshoot the limit.
 */
export class SubscriptionQuota {
  private readonly live = new Set<string>();
  private inFlight = 0;

  constructor(private readonly max: number) {}

  get size(): number {
    return this.live.size;
  }

  admit(payload: unknown): Admission {
    const adm: Admission = { forward: payload, refused: [], subscribes: [], unsubscribes: [] };
    if (Array.isArray(payload)) {
      const kept = payload.filter((item) => this.take(item, adm));
      // Never turn a non-empty batch into the empty batch the engine rejects.
      adm.forward = kept.length > 0 ? kept : undefined;
    } else if (!this.take(payload, adm)) {
      adm.forward = undefined;
    }
    return adm;
  }

  /** Books what the engine answered for an admitted message. */
  settle(adm: Admission, response: JsonRpcResponse | JsonRpcResponse[] | undefined): void {
    this.inFlight -= adm.subscribes.length;
    const answers = new Map<string, JsonRpcResponse[]>();
    for (const r of Array.isArray(response) ? response : response ? [response] : []) {
      const k = keyOf(r.id);
      const list = answers.get(k);
      if (list) list.push(r);
      else answers.set(k, [r]);
    }
    // The result answering call `id` (a repeated id takes its answers in order).
    const answerTo = (id: Id): unknown => {
      const r = answers.get(keyOf(id))?.shift();
      return r !== undefined && 'result' in r ? r.result : undefined;
    };
    for (const id of adm.subscribes) {
      const result = answerTo(id);
      if (typeof result === 'string') this.live.add(result.toLowerCase());
    }
    for (const { id, subscription } of adm.unsubscribes) {
      // A notification gets no answer: it ends a subscription of ours unless it was malformed.
      if (id === undefined || answerTo(id) === true) this.live.delete(subscription);
    }
  }

  /** False when the call is refused (and answered in `adm.refused`). */
  private take(item: unknown, adm: Admission): boolean {
    const call = asCall(item);
    if (call?.method === 'eth_unsubscribe' && Array.isArray(call.params) && typeof call.params[0] === 'string') {
      const subscription = call.params[0].toLowerCase();
      if (this.live.has(subscription))
        adm.unsubscribes.push({ id: 'id' in call ? (call.id as Id) : undefined, subscription });
      return true;
    }
    if (call?.method !== 'eth_subscribe') return true;
    // A subscription nobody can learn the id of would only hold resources: drop it unanswered.
    if (!('id' in call)) return false;
    const id = call.id as Id;
    if (this.live.size + this.inFlight >= this.max) {
      adm.refused.push({
        jsonrpc: '2.0',
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
        error: {
          code: -32005,
          message: `too many subscriptions: limit is ${this.max} per connection (maxSubscriptionsPerConnection); eth_unsubscribe one first`,
        },
      });
      return false;
    }
    this.inFlight++;
    adm.subscribes.push(id);
    return true;
  }
}
