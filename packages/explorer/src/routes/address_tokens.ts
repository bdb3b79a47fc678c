import { type TokenType, TOKEN_TYPES } from '@ashlar/core';
import { parseAddress } from '../http/params.js';
import { parseTokenTypes } from '../http/tokenTypes.js';
import { bigIntCursor, integerStringCursor, transferCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { dec } from '../serializers/format.js';
import { tokenJson } from '../serializers/token.js';
import type { RouteContext } from './context.js';
import { addressParam, rolesOf } from './addresses.js';
import { renderTransfers, transferPageParams, transferViews } from './transferPages.js';

/** An address holds few tokens: its balances are read whole (capped) and sorted in memory. */
const HOLDINGS_CAP = 10_000;

/** An address's token transfers and holdings (Blockscout's AddressController, token tabs). */
export function addressTokenRoutes({ ex, r }: RouteContext): void {
  r.get('/addresses/:hash/token-transfers', async (req) => {
    const q = req.query;
    const address = addressParam(req.params.hash);
    const types = parseTokenTypes(q.get('type')) ?? TOKEN_TYPES;
    const tokenRaw = q.get('token');
    const token = tokenRaw ? parseAddress(tokenRaw, 'token') : undefined;
    if (types.length === 0) return { items: [], next_page_params: null };
    const recs = await ex.q.transfers(
      { kind: 'address', address, roles: rolesOf(q), types, token },
      transferCursor(q),
      PAGE_SIZE + 1,
    );
    const views = await transferViews(ex, recs);
    const page = await pageOf(views, (shown) => renderTransfers(ex, shown), transferPageParams);
    // Token-transfer lists echo a client's items_count unchanged and add none (Blockscout).
    const itemsCount = q.get('items_count');
    if (page.next_page_params && itemsCount !== null) page.next_page_params.items_count = itemsCount;
    return page;
  });

  r.get('/addresses/:hash/token-balances', async (req) => {
    const holdings = await holdingsOf(req.params.hash, undefined);
    return holdings.map((h) => ({
      token: tokenJson(h.token, h.rec),
      token_id: h.id === null ? null : dec(h.id),
      token_instance: null,
      value: dec(h.balance),
    }));
  });

  r.get('/addresses/:hash/tokens', async (req) => {
    const q = req.query;
    const types = parseTokenTypes(q.get('type'));
    const value = integerStringCursor(q, 'value');
    const id = bigIntCursor(q, 'id');
    const tokenId = integerStringCursor(q, 'token_id');
    let rows = await holdingsOf(req.params.hash, types);
    if (value !== undefined && id !== undefined) {
      const cursor = { balance: value, seq: id, id: tokenId ?? null };
      rows = rows.filter((h) => compareHoldings(h, cursor) > 0);
    }
    return pageOf(
      rows.slice(0, PAGE_SIZE + 1),
      (shown) =>
        shown.map((h) => ({
          token: tokenJson(h.token, h.rec),
          token_id: h.id === null ? null : dec(h.id),
          token_instance: null,
          value: dec(h.balance),
        })),
      (last) => ({
        value: dec(last.balance),
        id: last.rec.seq,
        fiat_value: null,
        items_count: PAGE_SIZE,
        ...(last.id === null ? {} : { token_id: dec(last.id) }),
      }),
    );
  });

  /** An address's positive holdings, largest balance first (ties: later token, higher id first). */
  async function holdingsOf(raw: string, types: TokenType[] | undefined) {
    const holder = addressParam(raw);
    const balances = (await ex.q.balancesOf(holder, HOLDINGS_CAP)).filter((b) => b.balance > 0n);
    const recs = await ex.q.tokens(balances.map((b) => b.token));
    const out = balances
      .map((b, i) => ({ ...b, rec: recs[i] }))
      .filter((h): h is typeof h & { rec: NonNullable<typeof h.rec> } => h.rec !== undefined)
      .filter((h) => !types || types.includes(h.rec.type));
    out.sort((a, b) => compareHoldings(a, { balance: b.balance, seq: BigInt(b.rec.seq), id: b.id }));
    return out;
  }
}

/** Order of holdings: balance, then token seq, then token id (all descending); > 0 when `h` comes after `c`. */
function compareHoldings(
  h: { balance: bigint; rec: { seq: number }; id: bigint | null },
  c: { balance: bigint; seq: bigint; id: bigint | null },
): number {
  if (h.balance !== c.balance) return h.balance < c.balance ? 1 : -1;
  const seq = BigInt(h.rec.seq);
  if (seq !== c.seq) return seq < c.seq ? 1 : -1;
  const a = h.id ?? -1n;
  const b = c.id ?? -1n;
  return a === b ? 0 : a < b ? 1 : -1;
}
