import { equalsBytes } from '@ethereumjs/util';
import { parseHash } from '../http/params.js';
import { blockNumberCursor, present, txCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { dec, hex, isoTime } from '../serializers/format.js';
import { type LogView, logJson } from '../serializers/log.js';
import type { RouteContext } from './context.js';
import { addressParam } from './addresses.js';
import { renderBlocks } from './context.js';

/** A `topic` filter reads at most this many of the address's logs per page. */
const TOPIC_SCAN_LIMIT = 5_000;

/** An address's logs, mined blocks and coin-balance history (Blockscout's AddressController). */
export function addressActivityRoutes({ ex, r }: RouteContext): void {
  r.get('/addresses/:hash/logs', async (req) => {
    const address = addressParam(req.params.hash);
    const topicRaw = present(req.query, 'topic');
    const topic = topicRaw === undefined ? undefined : parseHash(topicRaw, 'topic');
    const c = txCursor(req.query);
    let after = c ? { block: c.block, logIndex: c.index } : undefined;
    const views: LogView[] = [];
    let scanned = 0;
    let exhausted = false;
    while (views.length <= PAGE_SIZE && scanned < TOPIC_SCAN_LIMIT) {
      const rows = await ex.q.addressLogs(address, after, PAGE_SIZE + 1);
      scanned += rows.length;
      for (const row of rows) {
        after = { block: row.block, logIndex: row.logIndex };
        const sb = await ex.block(row.block);
        const tx = sb?.block.transactions[row.txIndex];
        const receipt = sb?.receipts[row.txIndex];
        if (!sb || !tx || !receipt) continue;
        let base = 0;
        for (let i = 0; i < row.txIndex; i++) base += sb.receipts[i].logs.length;
        const log = receipt.logs[row.logIndex - base];
        if (!log || (topic && !log[1].some((t) => equalsBytes(t, topic)))) continue;
        views.push({
          log,
          logIndex: row.logIndex,
          block: row.block,
          blockHash: sb.hash,
          timestamp: sb.block.header.timestamp,
          txHash: tx.hash(),
        });
        if (views.length > PAGE_SIZE) break;
      }
      if (rows.length < PAGE_SIZE + 1) {
        exhausted = true;
        break;
      }
      if (!topic) break;
    }
    const facts = await ex.facts([], [address]);
    const params = (last: { block: bigint; logIndex: number }) => ({
      block_number: Number(last.block),
      index: last.logIndex,
      items_count: PAGE_SIZE,
    });
    if (views.length <= PAGE_SIZE && !exhausted && after) {
      // A topic filter stopped at its scan limit: continue from the last log read.
      return { items: views.map((v) => logJson(v, facts)), next_page_params: params(after) };
    }
    return pageOf(views, (shown) => shown.map((v) => logJson(v, facts)), params);
  });

  r.get('/addresses/:hash/blocks-validated', async (req) => {
    const miner = addressParam(req.params.hash);
    const numbers = await ex.q.validatedBlocks(miner, blockNumberCursor(req.query), PAGE_SIZE + 1);
    const blocks = [];
    for (const n of numbers) {
      const sb = await ex.block(n);
      if (sb) blocks.push(sb);
    }
    return pageOf(
      blocks,
      (shown) => renderBlocks(ex, shown),
      (last) => ({ block_number: Number(last.number), items_count: PAGE_SIZE }),
    );
  });

  r.get('/addresses/:hash/coin-balance-history', async (req) => {
    const address = addressParam(req.params.hash);
    const rows = await ex.q.coinHistory(address, blockNumberCursor(req.query), PAGE_SIZE + 1);
    return pageOf(
      rows,
      async (shown) => {
        const out = [];
        for (const c of shown) {
          const sb = await ex.block(c.block);
          const tx = c.txIndex === null ? undefined : sb?.block.transactions[c.txIndex];
          out.push({
            block_number: Number(c.block),
            block_timestamp: isoTime(sb?.block.header.timestamp ?? 0n),
            delta: dec(c.delta),
            value: dec(c.value),
            transaction_hash: tx ? hex(tx.hash()) : null,
          });
        }
        return out;
      },
      (last) => ({ block_number: Number(last.block), items_count: PAGE_SIZE }),
    );
  });
}
