/** A subscription notification as the rpc package builds it. */
interface Notification {
  method: string;
  params: { subscription: string; result: unknown };
}

/**
 * A notification ready to frame: its own short envelope around the result's JSON bytes,
 * which are shared by every subscriber of the same event.
 */
export interface EncodedNotification {
  head: string;
  result: Buffer;
  tail: string;
}

/** An outgoing message: plain JSON text, or a notification in parts. */
export type Encoded = string | EncodedNotification;

function isNotification(m: unknown): m is Notification {
  if (typeof m !== 'object' || m === null || 'id' in m) return false;
  const { method, params } = m as Record<string, unknown>;
  return (
    typeof method === 'string' &&
    typeof params === 'object' &&
    params !== null &&
    typeof (params as Record<string, unknown>).subscription === 'string'
  );
}

const TAIL = '}}';
const NULL_JSON = Buffer.from('null');

/** Bytes of an encoded message on the wire (before framing). */
export function byteLengthOf(e: Encoded): number {
  return typeof e === 'string' ? Buffer.byteLength(e, 'utf8') : Buffer.byteLength(e.head, 'utf8') + e.result.length + 2;
}

/** The message as one JSON text (tests and logs). */
export function textOf(e: Encoded): string {
  return typeof e === 'string' ? e : `${e.head}${e.result.toString('utf8')}${e.tail}`;
}

/**
 * Turns outgoing messages into wire form. Subscriptions hand every subscriber the same result
 * object for one event (one header per block, one object per log), so a notification's result
 * is serialised and UTF-8 encoded once per event, not once per subscriber: the memo is keyed
 * by the object and lets go of it with the event. Each subscriber's frame then only copies bytes.
 */
export function createSerializer(): (message: unknown) => Encoded {
  const memo = new WeakMap<object, Buffer>();
  return (message) => {
    if (!isNotification(message)) return JSON.stringify(message) ?? 'null';
    const { result, subscription } = message.params;
    let bytes: Buffer | undefined;
    if (typeof result === 'object' && result !== null) {
      bytes = memo.get(result);
      if (bytes === undefined) {
        bytes = Buffer.from(JSON.stringify(result), 'utf8');
        memo.set(result, bytes);
      }
    } else {
      const json = JSON.stringify(result);
      bytes = json === undefined ? NULL_JSON : Buffer.from(json, 'utf8');
    }
    return {
      head: `{"jsonrpc":"2.0","method":${JSON.stringify(message.method)},"params":{"subscription":${JSON.stringify(subscription)},"result":`,
      result: bytes,
      tail: TAIL,
    };
  };
}
