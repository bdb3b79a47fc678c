import { blockReward, type StoredBlock } from '@ashlar/core';
import type { Explorer } from '../Explorer.js';
import { notFound } from '../http/errors.js';
import { parseBlockId } from '../http/params.js';
import type { ExplorerRouter } from '../http/router.js';
import { blockJson } from '../serializers/block.js';
import { listedFrameCount } from '../serializers/internalTransaction.js';

/** What every route module registers with. */
export interface RouteContext {
  ex: Explorer;
  r: ExplorerRouter;
}

/** The block a `{block_hash_or_number_param}` names, or a 422 / 404. */
export async function blockParam(ex: Explorer, raw: string): Promise<StoredBlock> {
  const sb = await ex.blockById(parseBlockId(raw));
  if (!sb) throw notFound();
  return sb;
}

/**
 * A block's internal transactions (Blockscout's `internal_transactions_count`), from the call
 * frames kept at mining; null for a block mined with frame capture off (a list does not replay).
 */
async function internalCount(ex: Explorer, sb: StoredBlock): Promise<number | null> {
  const frames = await ex.services.chain.store.getCallFrames(sb);
  return frames ? frames.reduce((n, top) => n + listedFrameCount(top), 0) : null;
}

/** Renders blocks with their miners' facts loaded in one go. */
export async function renderBlocks(ex: Explorer, blocks: StoredBlock[]) {
  const [facts, internals] = await Promise.all([
    ex.facts(
      [],
      blocks.map((b) => b.block.header.coinbase.bytes),
    ),
    Promise.all(blocks.map((b) => internalCount(ex, b))),
  ]);
  const reward = blockReward(ex.services.chain.common);
  return blocks.map((b, i) => blockJson(b, facts, b.number === 0n ? 0n : reward, internals[i]));
}
