// What the fork-upstream tests seed on their upstream (an Ashlar node or Anvil) and the byte
// helpers they read it back with.

/** An account funded on the upstream before the fork block. */
export const RICH = `0x${'11'.repeat(20)}`;
/** An account given code (and a storage slot) on the upstream before the fork block. */
export const CONTRACT = `0x${'22'.repeat(20)}`;
/** PUSH1 1 PUSH1 0 SSTORE: the code CONTRACT holds. */
export const CODE = '0x6001600055';

/** A 32-byte word in hex. */
export const word = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`;
export const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
export const hexOf = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;
