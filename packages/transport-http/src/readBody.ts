import type { Readable } from 'node:stream';

/** The body passed the limit; the reader has stopped collecting. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body too large: limit is ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** The client went away before the body was complete; there is nobody left to answer. */
export class RequestAbortedError extends Error {
  constructor(cause?: unknown) {
    super('request aborted by the client', { cause });
    this.name = 'RequestAbortedError';
  }
}

/** True when a declared Content-Length already exceeds the limit, so the body need not be read at all. */
export function declaredLengthExceeds(header: string | undefined, limit: number): boolean {
  if (header === undefined) return false;
  const length = Number(header);
  return Number.isFinite(length) && length > limit;
}

/**
 * Collects a request body into one Buffer. Chunks go into an array and are joined once at the
 * end (the cheapest way in Node); once the limit is passed the collector detaches, so the rest
 * is never buffered.
 */
export function readBody(stream: Readable, limit: number): Promise<Buffer> {
  // Someone else (a framework's body parser) already drained it: waiting for 'end' would hang.
  if (stream.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;

    const cleanup = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onFail);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    // Node reports a dropped connection as an 'aborted' error; either way the request is gone.
    const onFail = (err: unknown): void => {
      cleanup();
      reject(new RequestAbortedError(err));
    };
    // 'close' before 'end' means the connection dropped mid-body.
    const onClose = (): void => {
      cleanup();
      reject(new RequestAbortedError());
    };

    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onFail);
    stream.on('close', onClose);
  });
}
