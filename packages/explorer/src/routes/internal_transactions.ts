import { type FlatFrame, type InternalPosition, type StoredBlock, blockCallFrames, flattenFrames } from '@ashlar/core';
import type { Explorer } from '../Explorer.js';
import { notFound } from '../http/errors.js';
import { parseHash, parseSmallUint, parseUint } from '../http/params.js';
import { present } from '../pagination/cursors.js';
import { PAGE_SIZE, type PageParams, pageOf } from '../pagination/page.js';
import {
  type InternalView,
  internalAddresses,
  internalTxJson,
  rawTraceJson,
} from '../serializers/internalTransaction.js';
import { addressParam, rolesOf } from './addresses.js';
import { blockParam, type RouteContext } from './context.js';

/** Each transaction's frames, depth-first, of the blocks pages read (stored, or replayed once for blocks mined without them). */
const flatCache = new WeakMap<StoredBlock, Promise<FlatFrame[][]>>();

function blockFlat(ex: Explorer, sb: StoredBlock): Promise<FlatFrame[][]> {
  let hit = flatCache.get(sb);
  if (!hit) {
    hit = blockCallFrames(ex.services.chain, sb).then((frames) => frames.map((f) => (f ? flattenFrames(f) : [])));
    flatCache.set(sb, hit);
    // A failed replay is not remembered.
    hit.catch(() => flatCache.delete(sb));
  }
  return hit;
}

/** Blockscout lists every frame but a top-level call: `(type = call and index > 0) or type != call`. */
const listed = (f: FlatFrame, index: number): boolean =>
  index > 0 || f.frame.type === 'CREATE' || f.frame.type === 'CREATE2';

async function viewsOfBlock(
  ex: Explorer,
  sb: StoredBlock,
  keep: (p: InternalPosition) => boolean,
): Promise<InternalView[]> {
  const flat = await blockFlat(ex, sb);
  const out: InternalView[] = [];
  let blockIndex = 0;
  for (let t = 0; t < flat.length; t++) {
    for (let i = 0; i < flat[t].length; i++, blockIndex++) {
      if (!listed(flat[t][i], i) || !keep({ block: sb.number, txIndex: t, index: i })) continue;
      out.push(view(sb, flat[t][i], t, i, blockIndex));
    }
  }
  return out;
}

function view(sb: StoredBlock, flat: FlatFrame, txIndex: number, index: number, blockIndex: number): InternalView {
  return {
    flat,
    index,
    blockIndex,
    txIndex,
    txHash: sb.block.transactions[txIndex].hash(),
    block: sb.number,
    timestamp: sb.block.header.timestamp,
  };
}

/** Views of index positions (newest first), read block by block. */
async function viewsAt(ex: Explorer, positions: InternalPosition[]): Promise<InternalView[]> {
  const out: InternalView[] = [];
  for (const p of positions) {
    const sb = await ex.block(p.block);
    if (!sb) continue;
    const flat = await blockFlat(ex, sb);
    const frame = flat[p.txIndex]?.[p.index];
    if (!frame) continue;
    let blockIndex = p.index;
    for (let t = 0; t < p.txIndex; t++) blockIndex += flat[t].length;
    out.push(view(sb, frame, p.txIndex, p.index, blockIndex));
  }
  return out;
}

async function render(ex: Explorer, views: InternalView[]) {
  const facts = await ex.facts([], views.flatMap(internalAddresses));
  return views.map((v) => internalTxJson(v, facts));
}

const pageParams = (v: InternalView): PageParams => ({
  block_number: Number(v.block),
  transaction_index: v.txIndex,
  index: v.index,
  items_count: PAGE_SIZE,
});

/**
 * The cursor a previous `next_page_params` gave: `block_number`, `transaction_index`, `index`.
 * Lists inside one transaction or block need only the keys below their scope.
 */
function internalCursor(q: URLSearchParams): Partial<InternalPosition> {
  const block = present(q, 'block_number');
  const tx = present(q, 'transaction_index');
  const index = present(q, 'index');
  return {
    ...(block === undefined ? {} : { block: parseUint(block, 'block_number') }),
    ...(tx === undefined ? {} : { txIndex: parseSmallUint(tx, 'transaction_index') }),
    ...(index === undefined ? {} : { index: parseSmallUint(index, 'index') }),
  };
}

/** The whole cursor of an index list, or none when any key is missing (the first page). */
function fullCursor(q: URLSearchParams): InternalPosition | undefined {
  const c = internalCursor(q);
  return c.block === undefined || c.txIndex === undefined || c.index === undefined
    ? undefined
    : { block: c.block, txIndex: c.txIndex, index: c.index };
}

/** Internal transactions and raw traces (Blockscout's TransactionController, AddressController, BlockController, InternalTransactionController). */
export function internalTransactionRoutes({ ex, r }: RouteContext): void {
  r.get('/transactions/:hash/internal-transactions', async (req) => {
    const t = await ex.txByHash(parseHash(req.params.hash, 'transaction_hash_param'));
    if (!t) throw notFound();
    const c = internalCursor(req.query);
    if (t.kind !== 'mined') return { items: [], next_page_params: null };
    const after = c.index ?? -1;
    const views = await viewsOfBlock(ex, t.sb, (p) => p.txIndex === t.index && p.index > after);
    return pageOf(views.slice(0, PAGE_SIZE + 1), (shown) => render(ex, shown), pageParams);
  });

  r.get('/transactions/:hash/raw-trace', async (req) => {
    const t = await ex.txByHash(parseHash(req.params.hash, 'transaction_hash_param'));
    if (!t) throw notFound();
    if (t.kind !== 'mined') return [];
    const flat = await blockFlat(ex, t.sb);
    return rawTraceJson(flat[t.index] ?? []);
  });

  r.get('/blocks/:id/internal-transactions', async (req) => {
    const sb = await blockParam(ex, req.params.id);
    const c = internalCursor(req.query);
    const afterTx = c.txIndex ?? -1;
    const afterIndex = c.index ?? -1;
    const views = await viewsOfBlock(
      ex,
      sb,
      (p) => p.txIndex > afterTx || (p.txIndex === afterTx && p.index > afterIndex),
    );
    return pageOf(views.slice(0, PAGE_SIZE + 1), (shown) => render(ex, shown), pageParams);
  });

  r.get('/addresses/:hash/internal-transactions', async (req) => {
    const address = addressParam(req.params.hash);
    const roles = rolesOf(req.query);
    const positions = await ex.q.internals({ kind: 'address', address, roles }, fullCursor(req.query), PAGE_SIZE + 1);
    return pageOf(await viewsAt(ex, positions), (shown) => render(ex, shown), pageParams);
  });

  r.get('/internal-transactions', async (req) => {
    const positions = await ex.q.internals({ kind: 'all' }, fullCursor(req.query), PAGE_SIZE + 1);
    return pageOf(await viewsAt(ex, positions), (shown) => render(ex, shown), pageParams);
  });
}
