import { definePlugin } from '@ashlar/core';
import { debug_getRawBlock } from './debug_getRawBlock.js';
import { debug_getRawHeader } from './debug_getRawHeader.js';
import { debug_getRawReceipts } from './debug_getRawReceipts.js';
import { debug_getRawTransaction } from './debug_getRawTransaction.js';
import { debug_traceBlockByHash } from './debug_traceBlockByHash.js';
import { debug_traceBlockByNumber } from './debug_traceBlockByNumber.js';
import { debug_traceCall } from './debug_traceCall.js';
import { debug_traceTransaction } from './debug_traceTransaction.js';

/** The `debug_` namespace: raw encodings and tracing (struct logger, callTracer, prestateTracer; docs/tracing.md). */
export const debugMethods = [
  debug_getRawBlock,
  debug_getRawHeader,
  debug_getRawReceipts,
  debug_getRawTransaction,
  debug_traceBlockByHash,
  debug_traceBlockByNumber,
  debug_traceCall,
  debug_traceTransaction,
];

export const debugPlugin = definePlugin({
  name: 'rpc:debug',
  register: (ctx) => ctx.addMethods(...debugMethods),
});
