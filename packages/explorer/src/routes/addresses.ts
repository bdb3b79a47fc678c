import type { Role } from '@ashlar/core';
import { Address, bytesToHex } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { invalidParam } from '../http/errors.js';
import { parseAddress, parseEnum } from '../http/params.js';
import { addressCursor, integerStringCursor, txCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { addressCounters, addressDetail, addressItem } from '../serializers/address.js';
import { checksum, dec, ether, isoTime } from '../serializers/format.js';
import type { RouteContext } from './context.js';
import { renderTxs } from './transactions.js';

export const addressParam = (raw: string): Uint8Array => parseAddress(raw, 'address_hash_param');

/** The `sort` and `order` a list was asked for, to carry into its `next_page_params`. */
export function sortParams(q: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['sort', 'order']) {
    const v = q.get(k);
    if (v) out[k] = v;
  }
  return out;
}

/** `filter=to|from` of address lists: which roles to merge. */
export function rolesOf(q: URLSearchParams): Role[] {
  const filter = parseEnum(q.get('filter'), 'filter', ['to', 'from'] as const);
  return filter ? [filter] : ['from', 'to'];
}

/** Balance and code at the head, read under the chain lock (the head state is live). */
async function headAccount(ex: Explorer, address: Uint8Array): Promise<{ balance: bigint; hasCode: boolean }> {
  const chain = ex.services.chain;
  return chain.exclusive(async () => {
    const acct = await chain.vm.stateManager.getAccount(new Address(address));
    return { balance: acct?.balance ?? 0n, hasCode: acct?.isContract() === true };
  });
}

/** `hash` and another key of a ranked list's cursor: both or neither. */
function pairedCursor<T>(q: URLSearchParams, name: string, read: (q: URLSearchParams, name: string) => T | undefined) {
  const value = read(q, name);
  const hash = addressCursor(q, 'hash');
  if ((value === undefined) !== (hash === undefined))
    throw invalidParam(value === undefined ? name : 'hash', `${name} and hash page together`);
  return value !== undefined && hash ? { value, hash } : undefined;
}

async function byBalance(ex: Explorer, q: URLSearchParams, order: 'asc' | 'desc') {
  const c = pairedCursor(q, 'fetched_coin_balance', integerStringCursor);
  return ex.q.addressesByBalance(c && { balance: c.value, address: c.hash }, PAGE_SIZE + 1, order);
}

async function byTxCount(ex: Explorer, q: URLSearchParams, order: 'asc' | 'desc') {
  const c = pairedCursor(q, 'transactions_count', integerStringCursor);
  return ex.q.addressesByTxCount(c && { count: c.value, address: c.hash }, PAGE_SIZE + 1, order);
}

/** /addresses and one address's summary, counters and transactions (Blockscout's AddressController). */
export function addressRoutes({ ex, r }: RouteContext): void {
  r.get('/addresses', async (req) => {
    const q = req.query;
    // By balance (the default) or by transaction count, most first, or least with `order=asc`.
    const sort = parseEnum(q.get('sort'), 'sort', ['balance', 'transactions_count'] as const) ?? 'balance';
    const order = parseEnum(q.get('order'), 'order', ['asc', 'desc'] as const) ?? 'desc';
    const rows: { address: Uint8Array }[] =
      sort === 'transactions_count' ? await byTxCount(ex, q, order) : await byBalance(ex, q, order);
    const totals = await ex.q.totals();
    const page = await pageOf(
      rows,
      async (shown) => {
        const list = shown.map((s) => s.address);
        const [recs, facts] = await Promise.all([ex.q.addresses(list), ex.facts([], list)]);
        return shown.map((s, i) => {
          const h = bytesToHex(s.address);
          return addressItem(s.address, recs[i], facts.contracts.has(h), facts.sc?.info(h));
        });
      },
      (last) => ({ hash: checksum(last.address), items_count: PAGE_SIZE }),
    );
    if (page.next_page_params) {
      // Blockscout's keys whatever the order: the last item's balance and count, and the request's sort.
      const last = page.items[page.items.length - 1] as { transactions_count: string; coin_balance: string | null };
      page.next_page_params.fetched_coin_balance = last.coin_balance ?? '0';
      page.next_page_params.transactions_count = Number(last.transactions_count);
      Object.assign(page.next_page_params, sortParams(q));
    }
    return { ...page, total_supply: ether(totals.coinSupply), exchange_rate: null };
  });

  r.get('/addresses/:hash', async (req) => {
    const address = addressParam(req.params.hash);
    const [account, rec, contract, token, hasTokens] = await Promise.all([
      headAccount(ex, address),
      ex.q.address(address),
      ex.q.contract(address),
      ex.q.token(address),
      ex.q.hasTokens(address),
    ]);
    let creationTxHash: Uint8Array | null = null;
    if (contract?.txIndex != null) {
      const sb = await ex.block(contract.block);
      creationTxHash = sb?.block.transactions[contract.txIndex]?.hash() ?? null;
    }
    // One address: worth reading its proxy slots (lists reuse the detections made here).
    if (account.hasCode) await ex.contracts?.proxyOf(bytesToHex(address));
    const info = ex.contracts?.info(bytesToHex(address));
    return addressDetail({ address, ...account, rec, contract, creationTxHash, token, hasTokens, info });
  });

  r.get('/addresses/:hash/counters', async (req) => addressCounters(await ex.q.address(addressParam(req.params.hash))));

  r.get('/addresses/:hash/transactions', async (req) => {
    const q = req.query;
    const address = addressParam(req.params.hash);
    // Only the default order (newest first) is served: sorting by value or fee cannot be paged in O(page).
    parseEnum(q.get('sort'), 'sort', ['block_number', 'value', 'fee'] as const);
    parseEnum(q.get('order'), 'order', ['asc', 'desc'] as const);
    const positions = await ex.q.txs({ kind: 'address', address, roles: rolesOf(q) }, txCursor(q), PAGE_SIZE + 1);
    const rows = await ex.txsAt(positions);
    return pageOf(
      rows,
      (shown) => renderTxs(ex, shown),
      (last) => ({
        block_number: Number(last.sb.number),
        index: last.index,
        inserted_at: isoTime(last.sb.block.header.timestamp),
        hash: bytesToHex(last.tx.hash()),
        value: dec(last.tx.value),
        fee: dec(last.receipt.gasUsed * last.receipt.effectiveGasPrice),
        items_count: PAGE_SIZE,
      }),
    );
  });
}
