import { defineRpcMethod } from '@ashlar/core';
import { traceCall } from '../debug/traceCall.js';
import { LATEST, blockTagOrHash, transactionRequest, withDefault } from '../params/index.js';
import { toBlockRef } from '../shared/state.js';
import { ParityTracer } from './ParityTracer.js';
import { traceTypes } from './traceTypes.js';

/** OpenEthereum's trace_call: a call request run on a block's state, traced (nothing is kept). */
export const trace_call = defineRpcMethod({
  name: 'trace_call',
  params: [transactionRequest('transaction'), traceTypes('traceTypes'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: async (ctx, [req, types, block]) => {
    const sb = await ctx.services.chain.requireBlock(toBlockRef(block));
    return traceCall(ctx.services, req, sb, undefined, new ParityTracer(types));
  },
});
