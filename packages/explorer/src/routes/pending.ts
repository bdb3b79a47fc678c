import type { TxKind } from '@ashlar/core';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { invalidParam } from '../http/errors.js';
import { parseHash } from '../http/params.js';
import { present } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { ownKinds, txJson } from '../serializers/transaction.js';

/**
 * `/transactions?filter=pending`: the pool, newest arrival first, paged by Blockscout's pending
 * keys (`inserted_at`, `hash`). A transaction mined meanwhile simply leaves the list.
 */
export async function pendingPage(
  ex: Explorer,
  q: URLSearchParams,
  types: TxKind[] | undefined,
  selectors: Uint8Array[] | undefined,
) {
  const insertedAt = present(q, 'inserted_at');
  const hashRaw = present(q, 'hash');
  let afterTime: number | undefined;
  if (insertedAt !== undefined) {
    afterTime = Date.parse(insertedAt);
    if (Number.isNaN(afterTime)) throw invalidParam('inserted_at', 'Invalid date-time');
  }
  const afterHash = hashRaw === undefined ? undefined : bytesToHex(parseHash(hashRaw, 'hash'));
  let rows = ex.pool();
  if (afterHash !== undefined || afterTime !== undefined) {
    const at = afterHash === undefined ? -1 : rows.findIndex((p) => p.ptx.hashHex === afterHash);
    rows =
      at >= 0 ? rows.slice(at + 1) : rows.filter((p) => afterTime === undefined || p.insertedAt.getTime() < afterTime);
  }
  if (types) rows = rows.filter((p) => ownKinds(p.ptx.tx).some((k) => types.includes(k)));
  if (selectors) {
    rows = rows.filter((p) => {
      const d = p.ptx.tx.data;
      return d.length >= 4 && selectors.some((s) => equalsBytes(s, d.subarray(0, 4)));
    });
  }
  const facts = await ex.facts(rows.slice(0, PAGE_SIZE + 1));
  return pageOf(
    rows.slice(0, PAGE_SIZE + 1),
    (shown) => shown.map((p) => txJson(p, facts)),
    (last) => ({ inserted_at: last.insertedAt.toISOString(), hash: last.ptx.hashHex, items_count: PAGE_SIZE }),
  );
}
