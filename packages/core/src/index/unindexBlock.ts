import type { Common } from '@ethereumjs/common';
import type { StoredBlock } from '../chain/types.js';
import type { BatchWriter } from './BatchWriter.js';
import { type BlockRows, blockReward, burntFees } from './blockRows.js';
import { BlockScope, isZero } from './BlockScope.js';
import { concat, keyString, readU64, u64 } from './codec.js';
import { META_KEYS, dayOf, keys } from './indexKeys.js';
import type { IndexStore } from './IndexStore.js';
import { listEntries } from './listEntries.js';
import { markTokenCreation } from './tokenCreation.js';
import { decodeCoinBalance, decodeDaily, encodeDaily, type TokenRecord } from './records.js';

export interface UnindexBlockInput {
  sb: StoredBlock;
  rows: BlockRows;
  store: IndexStore;
  common: Common;
}

/**
 * Takes one block out of the index (the head moved back past it): deletes its list entries and
 * moves every counter and balance back by what the block added. Balances come back from the
 * coin-balance history (value − delta), so no historical state is read.
 */
export async function unindexBlock(w: BatchWriter, input: UnindexBlockInput): Promise<void> {
  const { sb, rows, store } = input;
  const B = rows.number;
  const scope = new BlockScope(w);
  const totals = await scope.totals();

  const kindRows = await store.range('idxTx', { prefix: u64(B), reverse: false, limit: rows.txs.length + 1 });
  const kinds = kindRows.map((e) => e.value[0] ?? 0);

  const born = new Set<string>();
  for (const t of [...rows.transfers].reverse()) {
    const rec = (await scope.token(t.token)) as TokenRecord | undefined;
    if (!rec) continue;
    if (rec.firstBlock === B) born.add(keyString(t.token));
    rec.transfers--;
    const id = t.kind === 'erc1155-single' || t.kind === 'erc1155-batch' ? t.tokenId : null;
    await scope.moveHolding(t.token, rec, t.to, id, -t.amount);
    await scope.moveHolding(t.token, rec, t.from, id, t.amount);
    if (rec.totalSupply !== null && rec.firstBlock !== B) {
      if (isZero(t.from)) rec.totalSupply -= t.amount;
      if (isZero(t.to)) rec.totalSupply += t.amount;
    }
    (await scope.address(t.from)).transferCount--;
    if (keyString(t.from) !== keyString(t.to)) (await scope.address(t.to)).transferCount--;
  }
  for (const t of rows.transfers) {
    if (!born.delete(keyString(t.token))) continue;
    await markTokenCreation(w, t.token, B, false);
    await scope.setToken(t.token, undefined);
    totals.tokenCount--;
  }

  for (const tx of rows.txs) {
    const from = await scope.address(tx.from);
    from.txCount--;
    from.gasUsed -= tx.gasUsed;
    const receiver = tx.to ?? tx.created;
    if (receiver && keyString(receiver) !== keyString(tx.from)) (await scope.address(receiver)).txCount--;
    if (tx.created) w.del('idxContract', tx.created);
  }
  for (const it of rows.internals) if (it.index > 0 && it.created && it.effective) w.del('idxContract', it.created);
  for (const log of rows.logs) (await scope.address(log.address)).logCount--;
  for (const wd of rows.withdrawals) (await scope.address(wd.address)).withdrawalCount--;
  (await scope.address(rows.coinbase)).validations--;

  const historyKeys = rows.touched.map((t) => keys.coinHistory(t.address, B));
  const history = await store.getMany('idxCoinHistory', historyKeys);
  for (let i = 0; i < rows.touched.length; i++) {
    const raw = history[i];
    if (!raw) continue;
    const address = rows.touched[i].address;
    const entry = decodeCoinBalance(B, raw);
    const rec = await scope.address(address);
    w.del('idxCoinHistory', historyKeys[i]);
    // The balance rank moves back at the scope's flush (from entry.value, the balance the scope read).
    if (entry.first) {
      rec.hasBalance = false;
      rec.balance = 0n;
      rec.balanceBlock = 0n;
      totals.addressCount--;
      continue;
    }
    rec.balance = entry.value - entry.delta;
    const prev = await store.range('idxCoinHistory', { prefix: address, after: u64(B), reverse: true, limit: 1 });
    rec.balanceBlock = prev.length > 0 ? readU64(prev[0].key, 20) : 0n;
  }

  listEntries(w, rows, kinds, 'del');

  const gasUsed = sb.block.header.gasUsed;
  totals.txCount -= BigInt(rows.txs.length);
  totals.gasUsed -= gasUsed;
  totals.transferCount -= BigInt(rows.transfers.length);
  let withdrawn = 0n;
  for (const wd of rows.withdrawals) withdrawn += wd.amountGwei * 1_000_000_000n;
  totals.coinSupply -= withdrawn + blockReward(input.common) - burntFees(sb);

  const dayKey = keys.daily(dayOf(rows.timestamp));
  const day = await w.read('idxDaily', dayKey);
  const d = day ? decodeDaily(day) : { txCount: 0n, gasUsed: 0n };
  const left = { txCount: d.txCount - BigInt(rows.txs.length), gasUsed: d.gasUsed - gasUsed };
  if (left.txCount <= 0n && left.gasUsed <= 0n) w.del('idxDaily', dayKey);
  else w.put('idxDaily', dayKey, encodeDaily(left));

  scope.flush();
  w.put('idxMeta', META_KEYS.head, concat(u64(B - 1n), sb.block.header.parentHash));
}
