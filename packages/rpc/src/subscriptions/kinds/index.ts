import { logs } from './logs.js';
import { newHeads } from './newHeads.js';
import { newPendingTransactions } from './newPendingTransactions.js';
import { syncing } from './syncing.js';
import { transactionReceipts } from './transactionReceipts.js';
import type { SubscriptionKind } from './types.js';

/** The eth_subscribe kinds by wire name: the explicit list. */
export const SUBSCRIPTION_KINDS: ReadonlyMap<string, SubscriptionKind> = new Map([
  ['newHeads', newHeads],
  ['logs', logs],
  ['newPendingTransactions', newPendingTransactions],
  ['transactionReceipts', transactionReceipts],
  ['syncing', syncing],
]);

export { MAX_TX_HASHES } from './transactionReceipts.js';
export type { Notify, SubscriptionKind } from './types.js';
