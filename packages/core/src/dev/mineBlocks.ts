import { createAddressFromString } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import type { MempoolService } from '../mempool/MempoolService.js';
import type { MinerService } from '../miner/MinerService.js';
import type { ReservedBlocks } from './ReservedBlocks.js';

/** Up to this many empty blocks are built for real; more are reserved (as Hardhat does). */
const BUILD_AT_MOST = 5n;

export interface MineBlocksDeps {
  chain: ChainService;
  miner: MinerService;
  mempool: MempoolService;
  reserved: ReservedBlocks;
}

/**
 * hardhat_mine / anvil_mine: `count` blocks, `interval` seconds apart. The first block is mined
 * as evm_mine would (pool, next timestamp); blocks keep being built while the pool has work;
 * the empty rest is reserved: a million empty blocks cost one record, not a million executions.
 */
export function mineBlocks(deps: MineBlocksDeps, count: bigint, interval: bigint): Promise<void> {
  const { chain, miner, mempool, reserved } = deps;
  if (count <= 0n) return Promise.resolve();
  return chain.exclusive(async () => {
    let built = 1n;
    let last = await miner.mineNow();
    const nextTimestamp = () => chain.head.block.header.timestamp + interval;
    while (built < count && mempool.size > 0 && last.included.length > 0) {
      last = await miner.mineNow({ timestamp: nextTimestamp() });
      built++;
    }
    const rest = count - built;
    if (rest > BUILD_AT_MOST) {
      reserved.reserve(rest, interval, { gasLimit: miner.gasLimit, coinbase: createAddressFromString(miner.coinbase) });
    } else {
      for (let i = 0n; i < rest; i++) await miner.mineNow({ timestamp: nextTimestamp() });
    }
    // As Hardhat: the clock moves on from the last block, not from where it was before.
    const now = BigInt(Math.floor(Date.now() / 1000));
    const offset = chain.head.block.header.timestamp - now;
    if (offset > miner.timeOffset) miner.timeOffset = offset;
  });
}
