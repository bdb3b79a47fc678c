import {
  AshlarError,
  ErrorCodes,
  type StoredBlock,
  defineRpcMethod,
  effectiveGasPrice,
  toQuantity,
} from '@ashlar/core';
import { blockTag, hexOrDecimal64, optional } from '../params/index.js';
import { findBlock } from '../shared/blocks.js';

const MAX_BLOCKS = 1024;

function parsePercentiles(v: unknown): number[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || x < 0 || x > 100)) {
    throw new AshlarError(
      ErrorCodes.INVALID_PARAMS,
      'invalid argument 2 (rewardPercentiles): expected an array of numbers from 0 to 100',
    );
  }
  for (let i = 1; i < v.length; i++) {
    if (v[i] < v[i - 1])
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid reward percentile: #${i - 1}:${v[i - 1]} > #${i}:${v[i]}`,
      );
  }
  return v as number[];
}

/** Tips paid in a block at the given percentiles of gas used (geth's algorithm). */
function rewards(sb: StoredBlock, percentiles: number[]): `0x${string}`[] {
  const base = sb.block.header.baseFeePerGas ?? 0n;
  const txs = sb.block.transactions;
  if (txs.length === 0) return percentiles.map(() => '0x0');
  const items = txs.map((tx, i) => {
    const prev = i === 0 ? 0n : sb.receipts[i - 1].cumulativeGasUsed;
    return { tip: effectiveGasPrice(tx, base) - base, gas: sb.receipts[i].cumulativeGasUsed - prev };
  });
  items.sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  const gasUsed = sb.block.header.gasUsed;
  const out: `0x${string}`[] = [];
  let i = 0;
  let sum = items[0].gas;
  for (const p of percentiles) {
    const threshold = (gasUsed * BigInt(Math.round(p * 100))) / 10_000n;
    while (sum < threshold && i < items.length - 1) {
      i++;
      sum += items[i].gas;
    }
    out.push(toQuantity(items[i].tip));
  }
  return out;
}

export const eth_feeHistory = defineRpcMethod({
  name: 'eth_feeHistory',
  params: [
    hexOrDecimal64('blockCount'),
    blockTag('newestBlock'),
    optional({ name: 'rewardPercentiles', optional: true, parse: parsePercentiles }),
  ],
  handler: async (ctx, [count, newest, percentiles]) => {
    const chain = ctx.services.chain;
    const last = newest.kind === 'tag' && newest.tag === 'pending' ? chain.head : await findBlock(ctx.services, newest);
    if (!last) throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'invalid argument 1 (newestBlock): block not found');
    const n = count > BigInt(MAX_BLOCKS) ? BigInt(MAX_BLOCKS) : count;
    if (n === 0n) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [] };
    // A forked chain's history starts at its fork block (the blocks before it are the upstream's).
    const first = chain.genesis.number;
    const oldest = last.number - n + 1n < first ? first : last.number - n + 1n;
    const baseFeePerGas: string[] = [];
    const gasUsedRatio: number[] = [];
    const baseFeePerBlobGas: string[] = [];
    const blobGasUsedRatio: number[] = [];
    const reward: string[][] = [];
    const blob = chain.common.isActivatedEIP(4844);
    for (let b = oldest; b <= last.number; b++) {
      const sb = (await chain.getBlock(b)) as StoredBlock;
      const h = sb.block.header;
      baseFeePerGas.push(toQuantity(h.baseFeePerGas ?? 0n));
      gasUsedRatio.push(Number(h.gasUsed) / Number(h.gasLimit));
      // Blocks before Cancun (on a chain that forked into it) have no blob fields: fee and ratio 0.
      if (blob) {
        const cancun = h.excessBlobGas !== undefined;
        const maxBlobGas = cancun ? h.common.getBlobGasSchedule().maxBlobGasPerBlock : 0n;
        baseFeePerBlobGas.push(toQuantity(cancun ? h.getBlobGasPrice() : 0n));
        blobGasUsedRatio.push(maxBlobGas > 0n ? Number(h.blobGasUsed ?? 0n) / Number(maxBlobGas) : 0);
      }
      if (percentiles) reward.push(rewards(sb, percentiles));
    }
    const lastHeader = last.block.header;
    baseFeePerGas.push(toQuantity(chain.common.isActivatedEIP(1559) ? lastHeader.calcNextBaseFee() : 0n));
    if (blob)
      baseFeePerBlobGas.push(
        toQuantity(lastHeader.excessBlobGas === undefined ? 0n : lastHeader.calcNextBlobGasPrice(chain.common)),
      );
    const out: Record<string, unknown> = { oldestBlock: toQuantity(oldest), baseFeePerGas, gasUsedRatio };
    if (percentiles) out.reward = reward;
    if (blob) {
      out.baseFeePerBlobGas = baseFeePerBlobGas;
      out.blobGasUsedRatio = blobGasUsedRatio;
    }
    return out;
  },
});
