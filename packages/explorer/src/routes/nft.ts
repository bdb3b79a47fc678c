import { type TokenRecord, type TokenType, TOKEN_TYPES, type TransferPosition } from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { notFound } from '../http/errors.js';
import { parseAddress, parseIntegerString } from '../http/params.js';
import { parseTokenTypes } from '../http/tokenTypes.js';
import { addressCursor, integerStringCursor, transferCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { refOf } from '../serializers/addressRef.js';
import { checksum, dec } from '../serializers/format.js';
import { tokenJson } from '../serializers/token.js';
import type { RouteContext } from './context.js';
import { addressParam } from './addresses.js';
import { renderTransfers, transferPageParams, transferViews } from './transferPages.js';

/** Holdings and holders are read whole up to this many (an address holds few; a dev chain's NFT has few owners). */
const READ_CAP = 10_000;
const NFT_TYPES: readonly TokenType[] = TOKEN_TYPES.filter((t) => t !== 'ERC-20');

/**
 * One NFT as Blockscout's TokenInstance shows it. A dev chain fetches no metadata: the media
 * fields are null. `owner` is the holder of an ERC-721 (an ERC-1155 id may have many: null).
 */
function instanceJson(
  token: Uint8Array,
  rec: TokenRecord,
  id: bigint,
  owner: Uint8Array | null,
  value: bigint | null,
  facts: Awaited<ReturnType<Explorer['facts']>>,
) {
  return {
    id: dec(id),
    token: tokenJson(token, rec),
    token_type: rec.type,
    owner: owner ? refOf(owner, facts) : null,
    value: value === null ? null : dec(value),
    is_unique: rec.type === 'ERC-721',
    metadata: null,
    image_url: null,
    animation_url: null,
    external_app_url: null,
    media_url: null,
    media_type: null,
    thumbnails: null,
  };
}

async function tokenParam(ex: Explorer, raw: string) {
  const address = parseAddress(raw, 'address_hash_param');
  const rec = await ex.q.token(address);
  if (!rec) throw notFound();
  return { address, rec };
}

const isZero = (a: Uint8Array): boolean => a.every((b) => b === 0);

/**
 * The token's instances with their holders, highest id first. ERC-1155 ids come from the index's
 * holdings; the index counts ERC-721 holdings without ids, so an ERC-721's owners come from its
 * transfers: the newest transfer of an id names its owner (none after a burn).
 */
async function instancesOf(ex: Explorer, token: Uint8Array, rec: TokenRecord) {
  const byId = new Map<bigint, { holder: Uint8Array; balance: bigint }[]>();
  if (rec.type === 'ERC-721') {
    const seen = new Set<bigint>();
    for (const t of await ex.q.transfers({ kind: 'token', token }, undefined, READ_CAP)) {
      if (t.tokenId === null || seen.has(t.tokenId)) continue;
      seen.add(t.tokenId);
      if (!isZero(t.to)) byId.set(t.tokenId, [{ holder: t.to, balance: 1n }]);
    }
  } else {
    for (const h of await ex.q.tokenHolders(token, undefined, READ_CAP)) {
      if (h.id === null || h.balance <= 0n) continue;
      byId.set(h.id, [...(byId.get(h.id) ?? []), { holder: h.holder, balance: h.balance }]);
    }
  }
  return [...byId.entries()].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
}

/**
 * An address's NFTs, by token then id (both descending): its ERC-1155 holdings, and the ERC-721
 * ids whose newest transfer involving the address went to it (a later one away would involve it too).
 */
async function nftsOf(ex: Explorer, holder: Uint8Array, raw: string | null) {
  const types = parseTokenTypes(raw)?.filter((t) => t !== 'ERC-20') ?? NFT_TYPES;
  const held: { token: Uint8Array; id: bigint; balance: bigint }[] = [];
  if (types.includes('ERC-1155')) {
    for (const b of await ex.q.balancesOf(holder, READ_CAP))
      if (b.balance > 0n && b.id !== null) held.push({ token: b.token, id: b.id, balance: b.balance });
  }
  if (types.includes('ERC-721')) {
    const seen = new Set<string>();
    const source = {
      kind: 'address' as const,
      address: holder,
      roles: ['from', 'to'] as const,
      types: ['ERC-721' as const],
    };
    for (const t of await ex.q.transfers(source, undefined, READ_CAP)) {
      const key = `${bytesToHex(t.token)}:${t.tokenId}`;
      if (t.tokenId === null || seen.has(key)) continue;
      seen.add(key);
      if (bytesToHex(t.to) === bytesToHex(holder)) held.push({ token: t.token, id: t.tokenId, balance: 1n });
    }
  }
  const recs = await ex.q.tokens(held.map((h) => h.token));
  return held
    .map((h, i) => ({ ...h, rec: recs[i] }))
    .filter((h): h is typeof h & { rec: TokenRecord } => h.rec !== undefined && types.includes(h.rec.type))
    .sort((a, b) => {
      const t = bytesToHex(b.token).localeCompare(bytesToHex(a.token));
      return t !== 0 ? t : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
    });
}

/** The transfers of one token id, newest first, below `after` (of the token's newest READ_CAP transfers). */
async function transfersOfId(ex: Explorer, token: Uint8Array, id: bigint, after: TransferPosition | undefined) {
  const all = await ex.q.transfers({ kind: 'token', token }, after, READ_CAP);
  return all.filter((t) => t.tokenId === id);
}

/** NFT instances of a token (with each one's transfers and holders) and an address's NFTs (Blockscout's TokenController and AddressController). */
export function nftRoutes({ ex, r }: RouteContext): void {
  r.get('/tokens/:hash/instances', async (req) => {
    const { address, rec } = await tokenParam(ex, req.params.hash);
    const below = integerStringCursor(req.query, 'unique_token');
    const holderFilter = req.query.get('holder_address_hash');
    const holder = holderFilter ? parseAddress(holderFilter, 'holder_address_hash') : undefined;
    const rows = (await instancesOf(ex, address, rec))
      .filter(([id]) => below === undefined || id < below)
      .filter(([, hs]) => !holder || hs.some((h) => bytesToHex(h.holder) === bytesToHex(holder)))
      .slice(0, PAGE_SIZE + 1);
    const facts = await ex.facts(
      [],
      rows.flatMap(([, hs]) => hs.map((h) => h.holder)),
    );
    return pageOf(
      rows,
      (shown) =>
        shown.map(([id, hs]) => {
          const unique = rec.type === 'ERC-721' && hs.length === 1;
          const value = hs.reduce((n, h) => n + h.balance, 0n);
          return instanceJson(address, rec, id, unique ? hs[0].holder : null, value, facts);
        }),
      ([id]) => ({ unique_token: dec(id), items_count: PAGE_SIZE }),
    );
  });

  r.get('/tokens/:hash/instances/:id', async (req) => {
    const { address, rec } = await tokenParam(ex, req.params.hash);
    const id = parseIntegerString(req.params.id, 'token_id_param');
    const hit = (await instancesOf(ex, address, rec)).find(([i]) => i === id);
    if (!hit) throw notFound();
    const [, hs] = hit;
    const facts = await ex.facts(
      [],
      hs.map((h) => h.holder),
    );
    const owner = rec.type === 'ERC-721' && hs.length === 1 ? hs[0].holder : null;
    const value = hs.reduce((n, h) => n + h.balance, 0n);
    return instanceJson(address, rec, id, owner, value, facts);
  });

  // One instance's transfers, holders and transfer count (the instance page's tabs).
  r.get('/tokens/:hash/instances/:id/transfers', async (req) => {
    const { address } = await tokenParam(ex, req.params.hash);
    const id = parseIntegerString(req.params.id, 'token_id_param');
    const rows = await transfersOfId(ex, address, id, transferCursor(req.query));
    return pageOf(
      await transferViews(ex, rows.slice(0, PAGE_SIZE + 1)),
      (shown) => renderTransfers(ex, shown),
      transferPageParams,
    );
  });

  r.get('/tokens/:hash/instances/:id/transfers-count', async (req) => {
    const { address } = await tokenParam(ex, req.params.hash);
    const id = parseIntegerString(req.params.id, 'token_id_param');
    return { transfers_count: (await transfersOfId(ex, address, id, undefined)).length };
  });

  r.get('/tokens/:hash/instances/:id/holders', async (req) => {
    const { address, rec } = await tokenParam(ex, req.params.hash);
    const id = parseIntegerString(req.params.id, 'token_id_param');
    const after = integerStringCursor(req.query, 'value');
    const afterHolder = addressCursor(req.query, 'address_hash');
    const hit = (await instancesOf(ex, address, rec)).find(([i]) => i === id);
    // Largest balance first, ties by higher address, as the token's holder list.
    const rows = (hit?.[1] ?? [])
      .sort((x, y) =>
        x.balance !== y.balance
          ? x.balance < y.balance
            ? 1
            : -1
          : bytesToHex(y.holder).localeCompare(bytesToHex(x.holder)),
      )
      .filter(
        (h) =>
          after === undefined ||
          !afterHolder ||
          h.balance < after ||
          (h.balance === after && bytesToHex(h.holder).localeCompare(bytesToHex(afterHolder)) < 0),
      );
    const facts = await ex.facts(
      [],
      rows.map((h) => h.holder),
    );
    return pageOf(
      rows.slice(0, PAGE_SIZE + 1),
      (shown) => shown.map((h) => ({ address: refOf(h.holder, facts), token_id: dec(id), value: dec(h.balance) })),
      (last) => ({
        address_hash: checksum(last.holder),
        value: dec(last.balance),
        token_id: dec(id),
        items_count: PAGE_SIZE,
      }),
    );
  });

  r.get('/addresses/:hash/nft', async (req) => {
    const holder = addressParam(req.params.hash);
    const q = req.query;
    const afterToken = addressCursor(q, 'token_contract_address_hash');
    const afterId = integerStringCursor(q, 'token_id');
    let rows = await nftsOf(ex, holder, q.get('type'));
    if (afterToken && afterId !== undefined) {
      const t = bytesToHex(afterToken);
      rows = rows.filter((h) => {
        const c = bytesToHex(h.token).localeCompare(t);
        return c < 0 || (c === 0 && h.id < afterId);
      });
    }
    const facts = await ex.facts([], [holder]);
    return pageOf(
      rows.slice(0, PAGE_SIZE + 1),
      (shown) =>
        shown.map((h) =>
          instanceJson(h.token, h.rec, h.id, h.rec.type === 'ERC-721' ? holder : null, h.balance, facts),
        ),
      (last) => ({
        token_contract_address_hash: checksum(last.token),
        token_id: dec(last.id),
        token_type: last.rec.type,
        items_count: PAGE_SIZE,
      }),
    );
  });

  r.get('/addresses/:hash/nft/collections', async (req) => {
    const holder = addressParam(req.params.hash);
    const q = req.query;
    const afterToken = addressCursor(q, 'token_contract_address_hash');
    const rows = await nftsOf(ex, holder, q.get('type'));
    const collections = new Map<string, typeof rows>();
    for (const h of rows) {
      const k = bytesToHex(h.token);
      if (afterToken && k.localeCompare(bytesToHex(afterToken)) >= 0) continue;
      collections.set(k, [...(collections.get(k) ?? []), h]);
    }
    const facts = await ex.facts([], [holder]);
    return pageOf(
      [...collections.values()].slice(0, PAGE_SIZE + 1),
      (shown) =>
        shown.map((hs) => ({
          token: tokenJson(hs[0].token, hs[0].rec),
          amount: dec(hs.reduce((n, h) => n + h.balance, 0n)),
          token_instances: hs.map((h) =>
            instanceJson(h.token, h.rec, h.id, h.rec.type === 'ERC-721' ? holder : null, h.balance, facts),
          ),
        })),
      (last) => ({
        token_contract_address_hash: checksum(last[0].token),
        token_type: last[0].rec.type,
        items_count: PAGE_SIZE,
      }),
    );
  });
}
