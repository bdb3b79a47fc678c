import { randomBytes } from 'node:crypto';

/**
 * A subscription or filter id as geth makes them (`rpc.NewID`): `0x` and 32 hex digits from
 * 16 random bytes. The first digit is never zero, so the id also reads as the QUANTITY that
 * geth's zero-trimmed ids are, for clients that normalise ids as numbers.
 */
export function newSubscriptionId(): string {
  const bytes = randomBytes(16);
  if (bytes[0] < 0x10) bytes[0] |= 0x10;
  return `0x${bytes.toString('hex')}`;
}
