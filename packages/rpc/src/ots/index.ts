import { INDEX_PLUGIN, definePlugin } from '@ashlar/core';
import { ots_getApiLevel } from './ots_getApiLevel.js';
import { ots_getBlockDetails, ots_getBlockDetailsByHash } from './ots_getBlockDetails.js';
import { ots_getBlockTransactions } from './ots_getBlockTransactions.js';
import { ots_getContractCreator } from './ots_getContractCreator.js';
import { ots_getInternalOperations } from './ots_getInternalOperations.js';
import { ots_getTransactionBySenderAndNonce } from './ots_getTransactionBySenderAndNonce.js';
import { ots_getTransactionError } from './ots_getTransactionError.js';
import { ots_hasCode } from './ots_hasCode.js';
import { ots_searchTransactionsAfter, ots_searchTransactionsBefore } from './ots_searchTransactions.js';
import { ots_traceTransaction } from './ots_traceTransaction.js';

/** Otterscan's `ots_` namespace (Erigon's shapes, API level 8); history methods read the index. */
export const otsMethods = [
  ots_getApiLevel,
  ots_getBlockDetails,
  ots_getBlockDetailsByHash,
  ots_getBlockTransactions,
  ots_getContractCreator,
  ots_getInternalOperations,
  ots_getTransactionBySenderAndNonce,
  ots_getTransactionError,
  ots_hasCode,
  ots_searchTransactionsAfter,
  ots_searchTransactionsBefore,
  ots_traceTransaction,
];

/**
 * `rpc:ots` needs the `index` plugin (core's `indexPlugin()`): its address-history methods read
 * the index, so a kernel without it is refused at start-up, naming both plugins.
 */
export const otsPlugin = definePlugin({
  name: 'rpc:ots',
  dependencies: [INDEX_PLUGIN],
  register: (ctx) => ctx.addMethods(...otsMethods),
});
