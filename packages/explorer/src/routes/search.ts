import type { TokenRecord } from '@ashlar/core';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { invalidParam } from '../http/errors.js';
import { present } from '../pagination/cursors.js';
import { PAGE_SIZE } from '../pagination/page.js';
import { checksum, dec, hex, isoTime } from '../serializers/format.js';
import type { RouteContext } from './context.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const NUMBER = /^(0|[1-9][0-9]{0,19})$/;

function tokenItem(address: Uint8Array, t: TokenRecord) {
  const a = checksum(address);
  return {
    type: 'token',
    name: t.name,
    symbol: t.symbol,
    address: a,
    address_hash: a,
    address_url: `/address/${a}`,
    token_url: `/token/${a}`,
    token_type: t.type,
    icon_url: null,
    total_supply: t.totalSupply === null ? null : dec(t.totalSupply),
    exchange_rate: null,
    circulating_market_cap: null,
    is_smart_contract_verified: false,
    is_verified_via_admin_panel: false,
    certified: false,
    priority: 2,
  };
}

/** Search items carry spec §2.5's `address` and `tx_hash` and Blockscout 10's `address_hash` and `transaction_hash`, one value each. */

/** What `q` names exactly: an address, a transaction, a block (by hash or number). */
async function exactMatches(ex: Explorer, text: string) {
  const items: Record<string, unknown>[] = [];
  if (ADDRESS.test(text)) {
    const address = hexToBytes(text.toLowerCase() as `0x${string}`);
    const [contract, token] = await Promise.all([ex.q.contract(address), ex.q.token(address)]);
    const a = checksum(address);
    if (token) items.push(tokenItem(address, token));
    items.push({
      type: contract || token ? 'contract' : 'address',
      name: null,
      address: a,
      address_hash: a,
      url: `/address/${a}`,
      is_smart_contract_verified: false,
      certified: false,
      priority: 0,
    });
  } else if (HASH.test(text)) {
    const hash = hexToBytes(text.toLowerCase() as `0x${string}`);
    const t = await ex.txByHash(hash);
    if (t) {
      const ts = t.kind === 'mined' ? isoTime(t.sb.block.header.timestamp) : t.insertedAt.toISOString();
      items.push({
        type: 'transaction',
        tx_hash: bytesToHex(hash),
        transaction_hash: bytesToHex(hash),
        url: `/tx/${bytesToHex(hash)}`,
        timestamp: ts,
        priority: 3,
      });
    }
    const sb = await ex.blockById({ kind: 'hash', hash });
    if (sb) items.push(blockItem(sb.number, sb.hash, sb.block.header.timestamp));
  } else if (NUMBER.test(text)) {
    const sb = await ex.block(BigInt(text));
    if (sb) items.push(blockItem(sb.number, sb.hash, sb.block.header.timestamp));
  }
  return items;
}

function blockItem(n: bigint, hash: Uint8Array, ts: bigint) {
  return {
    type: 'block',
    block_number: Number(n),
    block_hash: hex(hash),
    url: `/block/${hex(hash)}`,
    timestamp: isoTime(ts),
    block_type: 'block',
    priority: 3,
  };
}

/** Tokens whose name or symbol starts with `text`: one page of search items, and where the next starts. */
async function tokenMatches(ex: Explorer, text: string, after: Uint8Array | undefined) {
  const found = await ex.q.searchTokens(text, after, PAGE_SIZE);
  const recs = await ex.q.tokens(found.items.map((x) => x.address));
  const tokens = found.items.flatMap((x, i) => {
    const rec = recs[i];
    return rec ? [tokenItem(x.address, rec)] : [];
  });
  return { tokens, full: found.full, last: found.last };
}

/** /search, /search/quick and /search/check-redirect (Blockscout's SearchController). */
export function searchRoutes({ ex, r }: RouteContext): void {
  r.get('/search', async (req) => {
    const text = (req.query.get('q') ?? '').trim();
    if (text === '') return { items: [], next_page_params: null };
    const keyRaw = present(req.query, 'search_key');
    if (keyRaw !== undefined && !/^0x([0-9a-f]{2})+$/.test(keyRaw))
      throw invalidParam('search_key', 'Invalid format. Expected hex');
    const items = keyRaw === undefined ? await exactMatches(ex, text) : [];
    if (ADDRESS.test(text) || HASH.test(text)) return { items, next_page_params: null };
    // Tokens by name or symbol prefix, case-insensitive, paged by the name-index key.
    const found = await tokenMatches(ex, text, keyRaw === undefined ? undefined : hexToBytes(keyRaw as `0x${string}`));
    items.push(...found.tokens);
    const more = found.full && found.last !== undefined;
    return {
      items,
      next_page_params: more
        ? {
            q: text,
            next_page_params_type: 'search',
            search_key: bytesToHex(found.last as Uint8Array),
            items_count: PAGE_SIZE,
          }
        : null,
    };
  });

  // The search bar's suggestions (Blockscout's quick_search): the first page of /search, unpaged.
  r.get('/search/quick', async (req) => {
    const text = (req.query.get('q') ?? '').trim();
    if (text === '') return [];
    const items = await exactMatches(ex, text);
    if (ADDRESS.test(text) || HASH.test(text)) return items;
    items.push(...(await tokenMatches(ex, text, undefined)).tokens);
    return items;
  });

  r.get('/search/check-redirect', async (req) => {
    const text = (req.query.get('q') ?? '').trim();
    const items = text === '' ? [] : await exactMatches(ex, text);
    const hit = items.find((i) => i.type !== 'token') as Record<string, unknown> | undefined;
    if (!hit) return { parameter: null, redirect: false, type: null };
    if (hit.type === 'transaction') return { parameter: hit.tx_hash, redirect: true, type: 'transaction' };
    if (hit.type === 'block') return { parameter: String(hit.block_number), redirect: true, type: 'block' };
    return { parameter: hit.address, redirect: true, type: 'address' };
  });
}
