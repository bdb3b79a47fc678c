import { TOKEN_TYPES, type TokenRecord } from '@ashlar/core';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { invalidParam, notFound } from '../http/errors.js';
import { parseAddress, parseEnum } from '../http/params.js';
import { parseTokenTypes } from '../http/tokenTypes.js';
import { addressCursor, integerStringCursor, present, transferCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { refOf } from '../serializers/addressRef.js';
import { checksum, dec } from '../serializers/format.js';
import { tokenJson } from '../serializers/token.js';
import { sortParams } from './addresses.js';
import type { RouteContext } from './context.js';
import { renderTransfers, transferPageParams, transferViews } from './transferPages.js';

async function tokenParam(ex: Explorer, raw: string): Promise<{ address: Uint8Array; rec: TokenRecord }> {
  const address = parseAddress(raw, 'address_hash_param');
  const rec = await ex.q.token(address);
  if (!rec) throw notFound();
  return { address, rec };
}

/** /tokens and one token's transfers, holders and counters (Blockscout's TokenController). */
export function tokenRoutes({ ex, r }: RouteContext): void {
  r.get('/tokens', async (req) => {
    const q = req.query;
    const types = parseTokenTypes(q.get('type')) ?? TOKEN_TYPES;
    // Prices and caps are null on a dev chain, so every sort is by holders; `order=asc`: least held first.
    parseEnum(q.get('sort'), 'sort', ['fiat_value', 'holders_count', 'circulating_market_cap'] as const);
    const order = parseEnum(q.get('order'), 'order', ['asc', 'desc'] as const) ?? 'desc';
    const text = present(q, 'q');
    if (text !== undefined) return searchPage(ex, text, q, types);
    const holders = integerStringCursor(q, 'holders_count');
    const address = addressCursor(q, 'contract_address_hash');
    const after = holders !== undefined && address ? { holders, address } : undefined;
    const rows = await ex.q.tokensByHolders(types, after, PAGE_SIZE + 1, order);
    const recs = await ex.q.tokens(rows.map((x) => x.address));
    const list = rows.flatMap((x, i) => (recs[i] ? [{ address: x.address, rec: recs[i] as TokenRecord }] : []));
    const page = await pageOf(
      list,
      (shown) => shown.map((t) => tokenJson(t.address, t.rec)),
      (last) => ({
        holders_count: dec(last.rec.holders),
        contract_address_hash: checksum(last.address),
        name: last.rec.name,
        is_name_null: last.rec.name === null,
        market_cap: null,
        fiat_value: null,
        items_count: PAGE_SIZE,
        ...sortParams(q),
      }),
    );
    return page;
  });

  r.get('/tokens/:hash', async (req) => {
    const { address, rec } = await tokenParam(ex, req.params.hash);
    return tokenJson(address, rec);
  });

  r.get('/tokens/:hash/counters', async (req) => {
    const { rec } = await tokenParam(ex, req.params.hash);
    return { token_holders_count: dec(rec.holders), transfers_count: dec(rec.transfers) };
  });

  r.get('/tokens/:hash/transfers', async (req) => {
    const { address } = await tokenParam(ex, req.params.hash);
    const recs = await ex.q.transfers({ kind: 'token', token: address }, transferCursor(req.query), PAGE_SIZE + 1);
    return pageOf(await transferViews(ex, recs), (shown) => renderTransfers(ex, shown), transferPageParams);
  });

  r.get('/tokens/:hash/holders', async (req) => {
    const q = req.query;
    const { address, rec } = await tokenParam(ex, req.params.hash);
    const value = integerStringCursor(q, 'value');
    const holder = addressCursor(q, 'address_hash');
    const tokenId = integerStringCursor(q, 'token_id');
    const after =
      value !== undefined && holder
        ? { balance: value, holder, id: rec.type === 'ERC-1155' ? (tokenId ?? 0n) : null }
        : undefined;
    const rows = await ex.q.tokenHolders(address, after, PAGE_SIZE + 1);
    const facts = await ex.facts(
      [],
      rows.map((h) => h.holder),
    );
    return pageOf(
      rows,
      (shown) =>
        shown.map((h) => ({
          address: refOf(h.holder, facts),
          token_id: h.id === null ? null : dec(h.id),
          value: dec(h.balance),
        })),
      (last) => ({
        address_hash: checksum(last.holder),
        value: dec(last.balance),
        items_count: PAGE_SIZE,
        ...(last.id === null ? {} : { token_id: dec(last.id) }),
      }),
    );
  });
}

/** `/tokens?q=`: tokens whose name or symbol starts with `q`, paged by the name-index key. */
async function searchPage(ex: Explorer, text: string, q: URLSearchParams, types: readonly string[]) {
  const keyRaw = present(q, 'search_key');
  if (keyRaw !== undefined && !/^0x([0-9a-f]{2})+$/.test(keyRaw))
    throw invalidParam('search_key', 'Invalid format. Expected hex');
  const after = keyRaw === undefined ? undefined : hexToBytes(keyRaw as `0x${string}`);
  const found = await ex.q.searchTokens(text, after, PAGE_SIZE + 1);
  const recs = await ex.q.tokens(found.items.map((x) => x.address));
  const list = found.items.flatMap((x, i) => {
    const rec = recs[i];
    return rec && types.includes(rec.type) ? [{ ...x, rec }] : [];
  });
  const page = await pageOf(
    list,
    (shown) => shown.map((t) => tokenJson(t.address, t.rec)),
    (last) => ({ q: text, search_key: bytesToHex(last.cursor), items_count: PAGE_SIZE }),
  );
  // Filtered out (type) or folded (name and symbol alike) entries can shorten a page that is not the last.
  if (!page.next_page_params && found.full && found.last) {
    page.next_page_params = { q: text, search_key: bytesToHex(found.last), items_count: PAGE_SIZE };
  }
  return page;
}
