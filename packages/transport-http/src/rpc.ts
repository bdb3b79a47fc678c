import type { AccessPolicy } from './access/AccessPolicy.js';
import { isJsonContentType } from './contentType.js';
import type { RpcEngine } from './coreTypes.js';
import { preserveRawIds, type IdRestorer } from './rawIds.js';
import { BodyTooLargeError, declaredLengthExceeds, readBody } from './readBody.js';
import { type HttpReply, rpcReplies } from './replies.js';
import { type BodySource, messageOf, type RequestHead } from './request.js';

/** `key`: the keyed endpoint's key index, undefined on the open endpoint (for the batch's rate charge). */
export type RpcServer = (head: RequestHead, body: BodySource, key?: number) => Promise<HttpReply | undefined>;

/**
 * Serves JSON-RPC over HTTP the way geth does: POST only, `application/json` only, a size
 * limit, parse errors as JSON-RPC errors with HTTP 200, an empty 200 for notification-only
 * bodies. Resolves undefined when the client left before sending its body.
 */
export function createRpcServer(
  engine: RpcEngine,
  maxBodyBytes: number,
  onError: (err: unknown) => void,
  access?: AccessPolicy,
): RpcServer {
  return async (head, body, key) => {
    if (head.method !== 'POST') return rpcReplies.methodNotAllowed();
    const headers = head.headers;
    // geth's order: size before content type. A declared oversize body is refused unread.
    if (body.kind === 'stream' && declaredLengthExceeds(headers['content-length'], maxBodyBytes)) {
      return rpcReplies.tooLarge(maxBodyBytes);
    }
    if (!isJsonContentType(headers['content-type'])) return rpcReplies.unsupportedMediaType();

    let payload: unknown;
    let restoreIds: IdRestorer | undefined;
    if (body.kind === 'parsed') {
      if (body.value === undefined) return rpcReplies.parseError('empty request body');
      payload = body.value;
    } else {
      let raw: Buffer;
      try {
        raw = await readBody(body.stream, maxBodyBytes);
      } catch (err) {
        if (err instanceof BodyTooLargeError) return rpcReplies.tooLarge(maxBodyBytes);
        return undefined;
      }
      const text = raw.toString('utf8');
      try {
        payload = JSON.parse(text);
      } catch (err) {
        // Unparseable bodies cost a request too: parsing them was the work.
        const refused = access?.admitRpc(head, key, 1);
        return refused === undefined ? rpcReplies.parseError(messageOf(err)) : rpcReplies.refused(refused);
      }
      restoreIds = preserveRawIds(payload, text);
    }

    // The dispatcher only checked that a token is left; now the cost is known: one per batch item.
    if (access !== undefined) {
      const refused = access.admitRpc(head, key, Array.isArray(payload) && payload.length > 1 ? payload.length : 1);
      if (refused !== undefined) return rpcReplies.refused(refused);
    }

    let result: Awaited<ReturnType<RpcEngine['handle']>>;
    try {
      result = await engine.handle(payload);
    } catch (err) {
      // The engine answers its own errors as JSON-RPC; a rejection is a bug, not a client error.
      onError(err);
      return rpcReplies.internal();
    }
    // Only notifications: nothing to answer, and geth says so with an empty 200.
    if (result === undefined) return rpcReplies.ok('');
    let text: string;
    try {
      text = engine.jsonOf?.(result) ?? JSON.stringify(result);
    } catch (err) {
      onError(err);
      return rpcReplies.internal();
    }
    return rpcReplies.ok(restoreIds === undefined ? text : restoreIds(text));
  };
}
