import { isJsonContentType } from './contentType.js';
import type { RpcEngine } from './coreTypes.js';
import { BodyTooLargeError, declaredLengthExceeds, readBody } from './readBody.js';
import { type HttpReply, rpcReplies } from './replies.js';
import { type BodySource, messageOf, type RequestHead } from './request.js';

export type RpcServer = (head: RequestHead, body: BodySource) => Promise<HttpReply | undefined>;

/**
 * Serves JSON-RPC over HTTP the way geth does: POST only, `application/json` only, a size
 * limit, parse errors as JSON-RPC errors with HTTP 200, an empty 200 for notification-only
 * bodies. Resolves undefined when the client left before sending its body.
 */
export function createRpcServer(engine: RpcEngine, maxBodyBytes: number, onError: (err: unknown) => void): RpcServer {
  return async (head, body) => {
    if (head.method !== 'POST') return rpcReplies.methodNotAllowed();
    const headers = head.headers;
    // geth's order: size before content type. A declared oversize body is refused unread.
    if (body.kind === 'stream' && declaredLengthExceeds(headers['content-length'], maxBodyBytes)) {
      return rpcReplies.tooLarge(maxBodyBytes);
    }
    if (!isJsonContentType(headers['content-type'])) return rpcReplies.unsupportedMediaType();

    let payload: unknown;
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
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch (err) {
        return rpcReplies.parseError(messageOf(err));
      }
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
      text = JSON.stringify(result);
    } catch (err) {
      onError(err);
      return rpcReplies.internal();
    }
    return rpcReplies.ok(text);
  };
}
