import { definePlugin } from '@ashlar/core';
import { trace_block } from './trace_block.js';
import { trace_call } from './trace_call.js';
import { trace_filter } from './trace_filter.js';
import { trace_replayBlockTransactions } from './trace_replayBlockTransactions.js';
import { trace_replayTransaction } from './trace_replayTransaction.js';
import { trace_transaction } from './trace_transaction.js';

/** The Parity (OpenEthereum) `trace_` namespace (docs/tracing.md). */
export const traceMethods = [
  trace_block,
  trace_call,
  trace_filter,
  trace_replayBlockTransactions,
  trace_replayTransaction,
  trace_transaction,
];

export const tracePlugin = definePlugin({
  name: 'rpc:trace',
  register: (ctx) => ctx.addMethods(...traceMethods),
});
