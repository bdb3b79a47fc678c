import { byteLengthOf, type Encoded } from './serialize.js';

function headerSize(n: number): number {
  return n < 126 ? 2 : n < 0x10000 ? 4 : 10;
}

/**
 * Encodes messages as consecutive server-to-client WebSocket text frames (RFC 6455 §5.2: FIN,
 * opcode 1, no mask) in one buffer. A batch of notifications then costs one buffer and one
 * socket write instead of two stream chunks per message through ws's sender; with
 * permessage-deflate off, ws writes its own frames straight to the socket too, so order holds.
 */
export function encodeTextFrames(messages: readonly Encoded[]): Buffer {
  let total = 0;
  const sizes = new Array<number>(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const n = byteLengthOf(messages[i]);
    sizes[i] = n;
    total += headerSize(n) + n;
  }
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < messages.length; i++) {
    const n = sizes[i];
    out[at++] = 0x81;
    if (n < 126) {
      out[at++] = n;
    } else if (n < 0x10000) {
      out[at++] = 126;
      out.writeUInt16BE(n, at);
      at += 2;
    } else {
      out[at++] = 127;
      out.writeBigUInt64BE(BigInt(n), at);
      at += 8;
    }
    const m = messages[i];
    if (typeof m === 'string') {
      at += out.write(m, at, 'utf8');
    } else {
      at += out.write(m.head, at, 'utf8');
      at += m.result.copy(out, at);
      at += out.write(m.tail, at, 'utf8');
    }
  }
  return out;
}
