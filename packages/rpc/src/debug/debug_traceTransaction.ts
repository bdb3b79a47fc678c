import { defineRpcMethod } from '@ashlar/core';
import { hash } from '../params/index.js';
import { makeTracer } from './makeTracer.js';
import { traceMinedTx } from './replay.js';
import { tracerSpec } from './traceOptions.js';

export const debug_traceTransaction = defineRpcMethod({
  name: 'debug_traceTransaction',
  params: [hash('transactionHash'), tracerSpec(1)],
  handler: (ctx, [h, spec]) =>
    traceMinedTx(ctx.kernel, h, () => makeTracer(spec, ctx.kernel.options.rpc.maxResponseBytes), spec.timeoutMs),
});
