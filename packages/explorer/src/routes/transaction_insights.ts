import { bytesToHex } from '@ethereumjs/util';
import type { Explorer, MinedTx } from '../Explorer.js';
import { invalidParam, notFound } from '../http/errors.js';
import { parseHash } from '../http/params.js';
import { PAGE_SIZE } from '../pagination/page.js';
import { type BalanceChange, stateChanges } from '../replay/stateChanges.js';
import { refOf } from '../serializers/addressRef.js';
import { dec } from '../serializers/format.js';
import { summaryJson } from '../serializers/summary.js';
import { tokenJson } from '../serializers/token.js';
import { transfersOf } from '../serializers/transaction.js';
import type { RouteContext } from './context.js';

/** The mined transaction a path names; a pooled one is `undefined` (nothing changed yet), an unknown one a 404. */
async function minedParam(ex: Explorer, raw: string): Promise<MinedTx | undefined> {
  const t = await ex.txByHash(parseHash(raw, 'transaction_hash_param'));
  if (!t) throw notFound();
  return t.kind === 'mined' ? t : undefined;
}

/** Blockscout's `items_count` of state changes: how many the earlier pages showed. */
function offsetParam(q: URLSearchParams): number {
  const raw = q.get('items_count');
  if (raw === null || raw === '') return 0;
  if (!/^[1-9][0-9]{0,6}$/.test(raw)) throw invalidParam('items_count', 'Invalid value: expected a positive integer');
  return Number(raw);
}

/** Coin changes first (the miner's among them), then tokens, in the order Blockscout lists them. */
const order = (a: BalanceChange, b: BalanceChange): number => Number(a.token !== null) - Number(b.token !== null);

/** A transaction's state changes and its summary (Blockscout's TransactionController). */
export function transactionInsightRoutes({ ex, r }: RouteContext): void {
  r.get('/transactions/:hash/state-changes', async (req) => {
    const t = await minedParam(ex, req.params.hash);
    const offset = offsetParam(req.query);
    if (!t) return { items: [], next_page_params: null };
    const transfers = transfersOf(t);
    const changes = (await stateChanges(ex.services.chain, t, transfers)).sort(order);
    const shown = changes.slice(offset, offset + PAGE_SIZE);
    const facts = await ex.facts(
      [t],
      shown.map((c) => c.address),
    );
    const miner = bytesToHex(t.sb.block.header.coinbase.bytes);
    const items = shown.map((c) => {
      const token = c.token ? facts.tokens.get(bytesToHex(c.token)) : undefined;
      return {
        address: refOf(c.address, facts),
        is_miner: c.token === null && bytesToHex(c.address) === miner,
        type: c.token === null ? ('coin' as const) : ('token' as const),
        token: c.token && token ? tokenJson(c.token, token) : null,
        token_id: c.tokenId === null ? null : dec(c.tokenId),
        balance_before: c.before === null ? null : dec(c.before),
        balance_after: c.after === null ? null : dec(c.after),
        change: c.before === null || c.after === null ? null : (c.after - c.before).toString(),
      };
    });
    const more = offset + PAGE_SIZE < changes.length;
    return { items, next_page_params: more ? { items_count: offset + PAGE_SIZE, state_changes: null } : null };
  });

  r.get('/transactions/:hash/summary', async (req) => {
    const t = await minedParam(ex, req.params.hash);
    if (!t) return { success: true, data: { summaries: [] } };
    const transfers = transfersOf(t);
    return summaryJson(t, transfers, await ex.facts([t]));
  });
}
