import type { TokenRecord } from '@ashlar/core';
import { checksum, dec } from './format.js';

/**
 * A token as embedded in transfers and served by /tokens. Spec §2.5 names `address` and
 * `holders`, Blockscout 10 `address_hash` and `holders_count`: both are served, with one value.
 * A dev chain has no market, so prices, caps and icons are null.
 */
export function tokenJson(address: Uint8Array, t: TokenRecord) {
  const hash = checksum(address);
  const holders = dec(t.holders);
  return {
    address: hash,
    address_hash: hash,
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals === null ? null : dec(t.decimals),
    type: t.type,
    holders,
    holders_count: holders,
    total_supply: t.totalSupply === null ? null : dec(t.totalSupply),
    exchange_rate: null,
    circulating_market_cap: null,
    volume_24h: null,
    icon_url: null,
    reputation: 'ok' as const,
  };
}
