import { CallTracer } from './callTracer.js';
import { PrestateTracer } from './prestateTracer.js';
import { StructLogger } from './structLogger.js';
import type { TracerSpec } from './traceOptions.js';
import type { TxTracer } from './tracer.js';

/** A fresh tracer of the kind a TraceConfig names (one per traced transaction). */
export function makeTracer(spec: TracerSpec): TxTracer {
  switch (spec.kind) {
    case 'struct':
      return new StructLogger(spec.config);
    case 'call':
      return new CallTracer(spec);
    case 'prestate':
      return new PrestateTracer(spec);
  }
}
