import { createHash, timingSafeEqual } from 'node:crypto';

/** Characters a key may hold: RFC 3986 unreserved, so a key is one path segment as written. */
const KEY_SHAPE = /^[A-Za-z0-9._~-]+$/;
/** Shorter keys are guessable; providers hand out 32 characters and more. */
export const MIN_API_KEY_LENGTH = 16;
export const MAX_API_KEY_LENGTH = 256;

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Why a configured key is refused; never quotes the key (it is a secret). */
export function apiKeyProblem(key: string): string | undefined {
  if (typeof key !== 'string') return 'an API key must be a string';
  if (key.length < MIN_API_KEY_LENGTH || key.length > MAX_API_KEY_LENGTH) {
    return `an API key must have ${MIN_API_KEY_LENGTH} to ${MAX_API_KEY_LENGTH} characters (one has ${key.length})`;
  }
  if (!KEY_SHAPE.test(key)) return 'an API key may hold only letters, digits and . _ ~ - (one holds another character)';
  return undefined;
}

/**
 * The configured API keys, kept as SHA-256 digests only. A candidate is hashed and compared with
 * every digest by crypto.timingSafeEqual: equal-length buffers whatever the candidate, and no
 * early exit on a match, so neither the answer's timing nor its content tells a prober how
 * close a guess came or which key matched.
 */
export class ApiKeySet {
  private readonly digests: readonly Buffer[];

  constructor(keys: readonly string[]) {
    const seen = new Set<string>();
    const digests: Buffer[] = [];
    for (const key of keys) {
      const problem = apiKeyProblem(key);
      if (problem !== undefined) throw new TypeError(`transport-http: apiKeys: ${problem}`);
      if (seen.has(key)) continue;
      seen.add(key);
      digests.push(digest(key));
    }
    this.digests = digests;
  }

  get size(): number {
    return this.digests.length;
  }

  /** The index of the matching key, or -1. */
  indexOf(candidate: string): number {
    const d = digest(candidate);
    let found = -1;
    for (let i = 0; i < this.digests.length; i++) {
      // `found === -1 &&` after the comparison, never before: every digest is compared.
      if (timingSafeEqual(d, this.digests[i] as Buffer) && found === -1) found = i;
    }
    return found;
  }
}
