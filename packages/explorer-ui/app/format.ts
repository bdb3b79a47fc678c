// Numbers arrive as decimal strings of wei (or token units): formatted with BigInt, never floats.

/** A decimal integer string in units of 10^decimals, trailing zeros trimmed: "1.5". */
export function formatUnits(value: string | null | undefined, decimals = 18): string {
  if (value === null || value === undefined || value === '') return '—';
  let v: bigint;
  try {
    v = BigInt(value);
  } catch {
    return value;
  }
  const negative = v < 0n;
  if (negative) v = -v;
  const base = 10n ** BigInt(decimals);
  const whole = v / base;
  const frac = (v % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  const text = whole.toLocaleString('en-US') + (frac ? `.${frac}` : '');
  return negative ? `-${text}` : text;
}

export const formatEth = (wei: string | null | undefined): string => `${formatUnits(wei, 18)} ETH`;

export function formatGwei(wei: string | null | undefined): string {
  return wei === null || wei === undefined ? '—' : `${formatUnits(wei, 9)} Gwei`;
}

export const formatInt = (n: string | number | null | undefined): string =>
  n === null || n === undefined ? '—' : BigInt(n).toLocaleString('en-US');

/** 0x1234…abcd */
export function shortHash(hash: string, keep = 4): string {
  return hash.length <= 2 + keep * 2 + 1 ? hash : `${hash.slice(0, 2 + keep)}…${hash.slice(-keep)}`;
}

/** "12s ago", "3m ago", "2h ago", "4d ago" relative to now (ms). */
export function relativeTime(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** "2026-11-26 14:36:39 UTC" */
export function absoluteTime(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** A decoded argument as text: arrays and tuples as JSON. */
export function formatValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
