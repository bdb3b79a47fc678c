import { defineRpcMethod } from '@ashlar/core';
import { hash } from '../params/index.js';
import { makeTracer } from './makeTracer.js';
import { traceMinedTx } from './replay.js';
import { tracerSpec } from './traceOptions.js';

export const debug_traceTransaction = defineRpcMethod({
  name: 'debug_traceTransaction',
  params: [hash('transactionHash'), tracerSpec(1)],
  handler: (ctx, [h, spec]) =>
    traceMinedTx(ctx.services, h, () => makeTracer(spec, ctx.services.options.rpc.maxResponseBytes), spec.timeoutMs),
});
