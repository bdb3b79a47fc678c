import { bytesToHex, toChecksumAddress } from '@ethereumjs/util';

/** `<timestamp>`: ISO 8601 UTC with microseconds and a trailing Z, as Blockscout writes them. */
export function isoTime(seconds: bigint | number): string {
  return new Date(Number(seconds) * 1000).toISOString().replace(/Z$/, '000Z');
}

const checksums = new Map<string, string>();
const CHECKSUM_CACHE = 50_000;

/** EIP-55 checksummed address (cached: a page names the same few addresses many times). */
export function checksum(address: Uint8Array | string): string {
  const lower = typeof address === 'string' ? address.toLowerCase() : bytesToHex(address);
  let out = checksums.get(lower);
  if (out === undefined) {
    out = toChecksumAddress(lower);
    if (checksums.size >= CHECKSUM_CACHE) checksums.clear();
    checksums.set(lower, out);
  }
  return out;
}

export const hex = (b: Uint8Array): string => bytesToHex(b);

/** A wei amount or counter as Blockscout's IntegerString. */
export const dec = (n: bigint | number): string => n.toString();

/** `part / whole × 100`, rounded to 2 decimals as Blockscout shows percentages (0 for an empty whole). */
export function percent(part: bigint, whole: bigint): number {
  if (whole === 0n) return 0;
  return Number((part * 1_000_000n) / whole) / 10_000;
}

/** Wei as a decimal number of ether, without trailing zeros (`available_supply`). */
export function ether(wei: bigint): string {
  const whole = wei / 10n ** 18n;
  const frac = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** Wei as gwei with 2 decimals, a JSON number (`gas_prices`). */
export function gwei(wei: bigint): number {
  return Number(wei / 10_000_000n) / 100;
}
