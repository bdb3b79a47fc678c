import type { Block } from '@ethereumjs/block';
import { Hardfork } from '@ethereumjs/common';
import { equalsBytes } from '@ethereumjs/util';
import type { StoredBlock } from '../chain/types.js';

/** Max ancestor distance of an uncle (geth: 7 generations, the parent excluded). */
const MAX_UNCLE_DEPTH = 7n;

/**
 * Consensus checks of a header against its parent, as a client importing blocks runs them:
 * linkage, time, gas limit bounds, ethash difficulty (but not the seal: the vectors' PoW blocks
 * carry zero nonces and mix hashes, and modern geth no longer verifies ethash), the terminal
 * total difficulty at the merge, EIP-1559 base fee and EIP-4844 excess blob gas. Transactions,
 * roots and gas used are checked by executing the block. Throws an Error naming the field.
 */
export function validateHeader(block: Block, parent: StoredBlock, ttd: bigint | undefined): void {
  const h = block.header;
  const p = parent.block.header;
  const common = h.common;
  if (h.number !== parent.number + 1n) throw new Error(`number ${h.number} does not follow parent ${parent.number}`);
  if (!equalsBytes(h.parentHash, parent.hash)) throw new Error('parent hash does not match the chain head');
  if (h.timestamp <= p.timestamp) throw new Error(`timestamp ${h.timestamp} not after parent's ${p.timestamp}`);
  if (h.gasUsed > h.gasLimit) throw new Error(`gas used ${h.gasUsed} above gas limit ${h.gasLimit}`);
  h.validateGasLimit(p);

  const pos = common.gteHardfork(Hardfork.Paris);
  if (pos) {
    // The first proof-of-stake block needs a parent at or past the terminal total difficulty.
    if (ttd !== undefined && p.difficulty !== 0n && parent.totalDifficulty < ttd)
      throw new Error(`merge before terminal total difficulty ${ttd} (parent has ${parent.totalDifficulty})`);
  } else {
    if (ttd !== undefined && parent.totalDifficulty >= ttd)
      throw new Error(`proof-of-work block after terminal total difficulty ${ttd}`);
    const want = h.ethashCanonicalDifficulty(p);
    if (h.difficulty !== want) throw new Error(`difficulty ${h.difficulty}, want ${want}`);
  }

  if (common.isActivatedEIP(1559)) {
    const londonBlock = common.hardforkBlock(Hardfork.London);
    const want = londonBlock === h.number ? common.param('initialBaseFee') : p.calcNextBaseFee();
    if (h.baseFeePerGas !== want) throw new Error(`base fee ${h.baseFeePerGas}, want ${want}`);
  }
  // Excess blob gas and blob gas used against the transactions (needs the parent header).
  block.validateBlobTransactions(p);

  block.validateUncles();
  for (const u of block.uncleHeaders) {
    if (u.number >= h.number || h.number - u.number > MAX_UNCLE_DEPTH)
      throw new Error(`uncle ${u.number} is not within ${MAX_UNCLE_DEPTH} generations of block ${h.number}`);
  }
}
