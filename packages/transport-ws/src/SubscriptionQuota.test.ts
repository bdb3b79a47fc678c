import { describe, expect, it } from 'vitest';
import type { JsonRpcResponse } from './coreTypes.js';
import { SubscriptionQuota } from './SubscriptionQuota.js';

const sub = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['newHeads'] });
const unsub = (id: number | undefined, s: string) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method: 'eth_unsubscribe',
  params: [s],
});
const ok = (id: number, result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, result });

describe('SubscriptionQuota', () => {
  it('counts subscriptions from answers and refuses past the limit, naming it', () => {
    const q = new SubscriptionQuota(2);
    const a = q.admit(sub(1));
    q.settle(a, ok(1, '0xAA'));
    const b = q.admit(sub(2));
    q.settle(b, ok(2, '0xbb'));
    expect(q.size).toBe(2);
    const c = q.admit(sub(3));
    expect(c.forward).toBeUndefined();
    expect(c.refused).toEqual([
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32005,
          message: expect.stringMatching(/limit is 2 per connection \(maxSubscriptionsPerConnection\)/),
        },
      },
    ]);
    // Unsubscribing frees a slot (ids compare case-insensitively).
    const d = q.admit(unsub(4, '0xaa'));
    q.settle(d, ok(4, true));
    expect(q.size).toBe(1);
    expect(q.admit(sub(5)).refused).toHaveLength(0);
  });

  it('counts calls in flight, so a burst cannot overshoot', () => {
    const q = new SubscriptionQuota(1);
    const batch = q.admit([sub(1), sub(2), { jsonrpc: '2.0', id: 3, method: 'eth_chainId' }]);
    expect(batch.forward).toEqual([sub(1), { jsonrpc: '2.0', id: 3, method: 'eth_chainId' }]);
    expect(batch.refused.map((r) => r.id)).toEqual([2]);
    expect(q.admit(sub(4)).refused).toHaveLength(1);
  });

  it('frees the slot of a failed eth_subscribe and ignores failed unsubscribes', () => {
    const q = new SubscriptionQuota(1);
    const a = q.admit(sub(1));
    q.settle(a, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } });
    expect(q.size).toBe(0);
    const b = q.admit(sub(2));
    q.settle(b, ok(2, '0x1'));
    const c = q.admit(unsub(3, '0x1'));
    q.settle(c, { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'subscription not found' } });
    expect(q.size).toBe(1);
    // A notification-style unsubscribe gets no answer; one naming our subscription ends it.
    const d = q.admit(unsub(undefined, '0x1'));
    q.settle(d, undefined);
    expect(q.size).toBe(0);
  });

  it('drops an eth_subscribe sent as a notification: nobody could learn its id', () => {
    const q = new SubscriptionQuota(5);
    const a = q.admit({ jsonrpc: '2.0', method: 'eth_subscribe', params: ['newHeads'] });
    expect(a.forward).toBeUndefined();
    expect(a.refused).toEqual([]);
    const b = q.admit([{ jsonrpc: '2.0', method: 'eth_subscribe', params: ['newHeads'] }, sub(1)]);
    expect(b.forward).toEqual([sub(1)]);
  });
});
