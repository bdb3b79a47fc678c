import { blockReward, type StoredBlock } from '@ashlar/core';
import type { Explorer, Facts } from '../Explorer.js';
import { notFound } from '../http/errors.js';
import { parseBlockId } from '../http/params.js';
import type { ExplorerRouter } from '../http/router.js';
import { blockJson } from '../serializers/block.js';

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

/** Renders blocks with their miners' facts loaded in one go. */
export async function renderBlocks(ex: Explorer, blocks: StoredBlock[]) {
  const facts: Facts = await ex.facts(
    [],
    blocks.map((b) => b.block.header.coinbase.bytes),
  );
  const reward = blockReward(ex.kernel.chain.common);
  return blocks.map((b) => blockJson(b, facts, b.number === 0n ? 0n : reward));
}
