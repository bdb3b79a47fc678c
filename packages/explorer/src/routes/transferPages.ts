import type { TransferRecord } from '@ashlar/core';
import type { Explorer } from '../Explorer.js';
import type { PageParams } from '../pagination/page.js';
import { hex } from '../serializers/format.js';
import { methodOf } from '../serializers/methods.js';
import { type TransferView, tokenTransferJson } from '../serializers/tokenTransfer.js';

/** Index records with what their views need from the block: hashes, time, the transaction's method. */
export async function transferViews(ex: Explorer, recs: TransferRecord[]): Promise<TransferView[]> {
  const out: TransferView[] = [];
  for (const t of recs) {
    const sb = await ex.block(t.block);
    const tx = sb?.block.transactions[t.txIndex];
    if (!sb || !tx) continue;
    out.push({
      ...t,
      blockHash: sb.hash,
      timestamp: sb.block.header.timestamp,
      txHash: tx.hash(),
      method: methodOf(tx.to?.bytes, tx.data),
    });
  }
  return out;
}

export async function renderTransfers(ex: Explorer, views: TransferView[]) {
  const facts = await ex.facts(
    [],
    views.flatMap((v) => [v.from, v.to, v.token]),
  );
  return views.map((v) => tokenTransferJson(v, facts));
}

/**
 * `next_page_params` of a token-transfer list: the spec's `block_number` and `index` (the log
 * index); when the page ends inside an ERC-1155 batch, Blockscout's batch keys say where.
 */
export function transferPageParams(last: TransferView): PageParams {
  const params: PageParams = { block_number: Number(last.block), index: last.logIndex };
  if (last.kind === 'erc1155-batch' && last.sub > 0) {
    params.batch_log_index = last.logIndex;
    params.batch_block_hash = hex(last.blockHash);
    params.batch_transaction_hash = hex(last.txHash);
    params.index_in_batch = last.sub;
  }
  return params;
}
