import { type ParamParser, type StateOverrides, defineRpcMethod } from '@ashlar/core';
import {
  LATEST,
  blockTagOrHash,
  decodeStateOverrides,
  makeParser,
  transactionRequest,
  withDefault,
} from '../params/index.js';
import { toBlockRef } from '../shared/state.js';
import { type TraceBlockOverrides, decodeTraceBlockOverrides } from './blockOverrides.js';
import { makeTracer } from './makeTracer.js';
import { traceCall } from './traceCall.js';
import { type TracerSpec, decodeTracerSpec } from './traceOptions.js';

interface TraceCallConfig {
  spec: TracerSpec;
  overrides?: StateOverrides;
  blockOverrides?: TraceBlockOverrides;
}

const decodeConfig = makeParser('config', (v: unknown): TraceCallConfig => {
  const o = v as Record<string, unknown>;
  const spec = decodeTracerSpec(v, 2);
  return {
    spec,
    overrides: o.stateOverrides == null ? undefined : decodeStateOverrides(o.stateOverrides),
    blockOverrides: o.blockOverrides == null ? undefined : decodeTraceBlockOverrides(o.blockOverrides),
  };
});

/** geth's TraceCallConfig: a TraceConfig plus `stateOverrides` and `blockOverrides`. */
const traceCallConfig: ParamParser<TraceCallConfig> = {
  name: 'config',
  optional: true,
  parse: (v, index) => (v == null ? { spec: decodeTracerSpec(undefined, index) } : decodeConfig.parse(v, index)),
};

export const debug_traceCall = defineRpcMethod({
  name: 'debug_traceCall',
  params: [transactionRequest('transaction'), withDefault(blockTagOrHash('block'), LATEST), traceCallConfig],
  handler: async (ctx, [req, block, config]) => {
    const sb = await ctx.services.chain.requireBlock(toBlockRef(block));
    const { spec } = config;
    const maxBytes = ctx.services.options.rpc.maxResponseBytes;
    const tracer = makeTracer(spec, maxBytes);
    return traceCall(ctx.services, req, sb, config.overrides, tracer, spec.timeoutMs, config.blockOverrides);
  },
});
