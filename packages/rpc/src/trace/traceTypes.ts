import { AshlarError, ErrorCodes, type ParamParser } from '@ashlar/core';
import type { TraceTypes } from './ParityTracer.js';

const KNOWN = new Set(['trace', 'stateDiff', 'vmTrace']);

/** The trace types array of trace_call / trace_replay* (`vmTrace` accepted, answered null). */
export const traceTypes = (name: string): ParamParser<TraceTypes> => ({
  name,
  optional: false,
  parse(v, index) {
    if (!Array.isArray(v) || v.some((t) => typeof t !== 'string'))
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid argument ${index} (${name}): expected an array of strings`,
      );
    for (const t of v as string[])
      if (!KNOWN.has(t))
        throw new AshlarError(
          ErrorCodes.INVALID_PARAMS,
          `invalid argument ${index} (${name}): unknown trace type ${JSON.stringify(t)}`,
        );
    const set = new Set(v as string[]);
    return { trace: set.has('trace'), stateDiff: set.has('stateDiff') };
  },
});
