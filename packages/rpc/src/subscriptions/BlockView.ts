import { type RawLog, type StoredBlock, toData, toQuantity } from '@ashlar/core';
import {
  blockHexContext,
  formatLog,
  type Hex,
  type RpcBlock,
  type RpcLog,
  type RpcReceipt,
  toRpcBlock,
  toRpcReceipts,
} from '../format/index.js';

/** A block header as geth's `newHeads` sends it: the block object without its body. */
export type RpcHeader = Omit<RpcBlock, 'transactions' | 'uncles' | 'size' | 'totalDifficulty' | 'withdrawals'>;

/** One log of a block: the stored form (for matching) next to its wire form (for sending). */
export interface ViewLog {
  raw: RawLog;
  rpc: RpcLog;
}

const BODY_FIELDS: ReadonlySet<string> = new Set(['transactions', 'uncles', 'size', 'totalDifficulty', 'withdrawals']);

/**
 * One committed (or removed) block as every subscription and filter sees it. Each wire value
 * is built on first use and then shared: a hundred `newHeads` subscribers cost one header,
 * and the WebSocket transport serialises a shared object once.
 */
export class BlockView {
  private headerCache?: RpcHeader;
  private logsCache?: ViewLog[];
  private receiptsCache?: RpcReceipt[];

  /** `removed`: the block left the chain (snapshot revert, reset); its logs say `removed: true`. */
  constructor(
    readonly block: StoredBlock,
    readonly removed = false,
  ) {}

  get number(): bigint {
    return this.block.number;
  }

  header(): RpcHeader {
    if (this.headerCache === undefined) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(toRpcBlock(this.block, false, { totalDifficulty: false }))) {
        if (!BODY_FIELDS.has(k)) out[k] = v;
      }
      this.headerCache = out as unknown as RpcHeader;
    }
    return this.headerCache;
  }

  get hash(): Hex {
    return toData(this.block.hash);
  }

  /** Every log of the block in order, with block-wide log indexes. */
  logs(): readonly ViewLog[] {
    if (this.logsCache === undefined) {
      const out: ViewLog[] = [];
      const sb = this.block;
      const ctx = blockHexContext(sb);
      let logIndex = 0;
      for (let i = 0; i < sb.receipts.length; i++) {
        const logs = sb.receipts[i].logs;
        if (logs.length === 0) continue;
        const txHash = toData(sb.block.transactions[i].hash());
        const txIndex = toQuantity(i);
        for (const raw of logs) out.push({ raw, rpc: formatLog(raw, ctx, txHash, txIndex, logIndex++, this.removed) });
      }
      this.logsCache = out;
    }
    return this.logsCache;
  }

  /** Receipts of every transaction, as eth_getBlockReceipts answers. */
  receipts(): readonly RpcReceipt[] {
    this.receiptsCache ??= toRpcReceipts(this.block);
    return this.receiptsCache;
  }
}
