import { bytesToHex, toChecksumAddress } from '@ethereumjs/util';

/** The latest time a JS Date holds (ECMA-262 §21.4.1.22: 8.64e15 ms after the epoch). */
const MAX_DATE_MS = 8.64e15;

/** `<timestamp>`: ISO 8601 UTC with microseconds and a trailing Z, as Blockscout writes them. */
export function isoTime(seconds: bigint | number): string {
  // A dev chain takes any uint64 timestamp (evm_setNextBlockTimestamp); past JS Date's last day
  // (year 275760) toISOString throws, so such times show as that day instead of failing the page.
  const ms = Number(seconds) * 1000;
  return new Date(ms > MAX_DATE_MS ? MAX_DATE_MS : ms).toISOString().replace(/Z$/, '000Z');
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
