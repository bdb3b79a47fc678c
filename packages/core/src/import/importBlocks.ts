import { createBlockFromRLP } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';
import { runBlock } from '@ethereumjs/vm';
import type { ChainService } from '../chain/ChainService.js';
import { alignHardfork, gethNumber } from '../chain/gethGenesis.js';
import type { StoredBlock } from '../chain/types.js';
import { storedBlock } from '../chain/storedBlock.js';
import { effectiveGasPrice, toStoredReceipt } from '../miner/assembleBlock.js';
import { splitRlpItems } from './rlpBlocks.js';
import { validateHeader } from './validateHeader.js';

export interface ImportProgress {
  /** Blocks handled so far (imported or already present). */
  done: number;
  /** Blocks in the input. */
  total: number;
  /** Number of the block just handled. */
  number: bigint;
}

export interface ImportOptions {
  /** Called after each block. */
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportResult {
  /** Blocks executed and stored. */
  imported: number;
  /** Blocks skipped because the chain already holds them (a repeated import). */
  skipped: number;
  /** The chain head after the import. */
  head: bigint;
  /** The first invalid block: the import stopped there, the chain stays at the block before it. */
  error?: { number?: bigint; index: number; reason: string };
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Imports concatenated RLP blocks (`geth export` / chain.rlp format) on top of the chain: each
 * block is checked against its parent, executed by @ethereumjs/vm's runBlock on the head state
 * (state root, receipts root, bloom, gas used and requests hash must match the header) and
 * stored exactly as a mined block (ChainService.commitBlock: receipts, senders, lookups and
 * index hooks). Blocks the chain already holds are skipped, so importing the same file twice is
 * harmless. Stops at the first invalid block and reports its number and the reason.
 */
export async function importBlocks(
  from: { readonly chain: ChainService },
  rlp: Uint8Array,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const chain = from.chain;
  const items = [...splitRlpItemsSafe(rlp)];
  const result: ImportResult = { imported: 0, skipped: 0, head: chain.head.number };
  const ttdRaw = chain.settings.genesis?.config.terminalTotalDifficulty;
  const ttd =
    typeof ttdRaw === 'number' || typeof ttdRaw === 'string'
      ? gethNumber(ttdRaw, 'terminalTotalDifficulty')
      : undefined;
  for (let i = 0; i < items.length; i++) {
    const entry = items[i];
    if ('error' in entry) {
      result.error = { index: i, reason: entry.error };
      break;
    }
    const outcome = await chain.exclusive(() => importOne(chain, entry.item, ttd));
    if (outcome.kind === 'invalid') {
      result.error = {
        index: i,
        reason: outcome.reason,
        ...(outcome.number === undefined ? {} : { number: outcome.number }),
      };
      break;
    }
    if (outcome.kind === 'imported') result.imported++;
    else result.skipped++;
    opts.onProgress?.({ done: i + 1, total: items.length, number: outcome.number });
  }
  result.head = chain.head.number;
  return result;
}

/** The items of the input; a truncated tail becomes an error entry instead of a throw. */
function* splitRlpItemsSafe(rlp: Uint8Array): Generator<{ item: Uint8Array } | { error: string }> {
  try {
    for (const { item } of splitRlpItems(rlp)) yield { item };
  } catch (e) {
    yield { error: message(e) };
  }
}

type Outcome = { kind: 'imported' | 'known'; number: bigint } | { kind: 'invalid'; number?: bigint; reason: string };

/** One block, inside the chain lock. */
async function importOne(chain: ChainService, bytes: Uint8Array, ttd: bigint | undefined): Promise<Outcome> {
  let block: ReturnType<typeof createBlockFromRLP>;
  try {
    block = createBlockFromRLP(bytes, { common: chain.common, setHardfork: true });
  } catch (e) {
    return { kind: 'invalid', reason: `cannot decode block: ${message(e)}` };
  }
  const number = block.header.number;
  if (number <= chain.head.number) {
    const have = await chain.getBlock(number);
    if (have && equalsBytes(have.hash, block.hash())) return { kind: 'known', number };
    return { kind: 'invalid', number, reason: 'block conflicts with the stored chain (reorgs are not imported)' };
  }
  const parent = chain.head;
  try {
    validateHeader(block, parent, ttd);
  } catch (e) {
    return { kind: 'invalid', number, reason: message(e) };
  }
  const vm = chain.vm;
  let stored: StoredBlock;
  try {
    // Header checks ran above (runBlock would need a full blockchain object for them); it still
    // checks the body (tx signatures and trie, uncle hash, withdrawals) and every result root.
    const run = await runBlock(vm, { block, setHardfork: true, skipHeaderValidation: true });
    const senders = block.transactions.map((tx) => tx.getSenderAddress());
    const baseFee = block.header.baseFeePerGas;
    stored = storedBlock({
      block,
      number,
      hash: block.hash(),
      senders,
      receipts: run.results.map((r, i) =>
        toStoredReceipt(r, block.transactions[i], senders[i], effectiveGasPrice(block.transactions[i], baseFee)),
      ),
      totalDifficulty: parent.totalDifficulty + block.header.difficulty,
      size: bytes.length,
      // The bytes as read: an export writes them back unchanged.
      rlp: bytes,
    });
  } catch (e) {
    // Nothing of the failed block may stay: its trie nodes, its state, its fork rules.
    chain.stateDb.discard();
    await vm.stateManager.setStateRoot(chain.headStateRoot);
    alignHardfork(chain.common, parent.number, parent.block.header.timestamp);
    return { kind: 'invalid', number, reason: message(e) };
  }
  await chain.commitBlock(stored);
  return { kind: 'imported', number };
}
