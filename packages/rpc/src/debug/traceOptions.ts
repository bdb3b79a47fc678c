import { AshlarError, ErrorCodes, type ParamParser } from '@ashlar/core';
import { parseGoDuration } from '../shared/timeLimit.js';
import type { TraceConfig } from './structLogger.js';

/** The tracer a TraceConfig names, with its options, and its `timeout` in ms when given. */
export type TracerSpec = (
  | { kind: 'struct'; config: TraceConfig }
  | { kind: 'call'; onlyTopCall: boolean; withLog: boolean }
  | { kind: 'prestate'; diffMode: boolean; disableCode: boolean; disableStorage: boolean }
  | { kind: 'fourByte' }
) & { timeoutMs?: number };

const invalid = (index: number, msg: string) =>
  new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument ${index}: ${msg}`);

function flag(o: Record<string, unknown>, k: string, index: number): boolean {
  const v = o[k];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw invalid(index, `${k} must be a boolean`);
  return v;
}

function objectOf(v: unknown, index: number, what: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid(index, `${what} must be an object`);
  return v as Record<string, unknown>;
}

/** geth's `timeout`: a Go duration string; the shorter of it and the node's call timeout applies. */
function timeoutOf(o: Record<string, unknown>, index: number): number | undefined {
  const t = o.timeout;
  if (t === undefined || t === null) return undefined;
  const ms = typeof t === 'string' ? parseGoDuration(t) : undefined;
  if (ms === undefined)
    throw invalid(index, `timeout must be a duration such as "5s" or "500ms", got ${JSON.stringify(t).slice(0, 40)}`);
  return ms;
}

/** geth's TraceConfig (the struct logger's flags at the top level, a named tracer's in `tracerConfig`). */
export function decodeTracerSpec(v: unknown, index: number): TracerSpec {
  const o = objectOf(v, index, 'TraceConfig');
  const timeoutMs = timeoutOf(o, index);
  const spec = decodeTracer(o, index);
  return timeoutMs === undefined ? spec : { ...spec, timeoutMs };
}

function decodeTracer(o: Record<string, unknown>, index: number): TracerSpec {
  const tracer = o.tracer;
  if (tracer !== undefined && tracer !== null && typeof tracer !== 'string')
    throw invalid(index, 'tracer must be a string');
  const tc = objectOf(o.tracerConfig, index, 'tracerConfig');
  switch (tracer ?? '') {
    case '': {
      const limit = o.limit === undefined || o.limit === null ? 0 : Number(o.limit);
      return {
        kind: 'struct',
        config: {
          disableStack: flag(o, 'disableStack', index),
          disableStorage: flag(o, 'disableStorage', index),
          enableMemory: flag(o, 'enableMemory', index),
          enableReturnData: flag(o, 'enableReturnData', index),
          limit: Number.isSafeInteger(limit) && limit > 0 ? limit : 0,
        },
      };
    }
    case 'callTracer':
      return { kind: 'call', onlyTopCall: flag(tc, 'onlyTopCall', index), withLog: flag(tc, 'withLog', index) };
    case 'prestateTracer':
      return {
        kind: 'prestate',
        diffMode: flag(tc, 'diffMode', index),
        disableCode: flag(tc, 'disableCode', index),
        disableStorage: flag(tc, 'disableStorage', index),
      };
    case '4byteTracer':
      return { kind: 'fourByte' };
    default:
      // geth: "tracer not found" for a name it does not know; JavaScript tracers are not run here.
      throw new AshlarError(
        ErrorCodes.EXECUTION,
        `tracer ${JSON.stringify(tracer)} not found (served: the struct logger, callTracer, prestateTracer, 4byteTracer)`,
      );
  }
}

/** The optional TraceConfig parameter at position `index`. */
export const tracerSpec = (index: number): ParamParser<TracerSpec> => ({
  name: 'config',
  optional: true,
  parse: (v) => decodeTracerSpec(v, index),
});
