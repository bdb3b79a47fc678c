import { CallTracer } from './callTracer.js';
import { FourByteTracer } from './fourByteTracer.js';
import { PrestateTracer } from './prestateTracer.js';
import { StructLogger } from './structLogger.js';
import type { TracerSpec } from './traceOptions.js';
import type { TxTracer } from './tracer.js';

/**
 * A fresh tracer of the kind a TraceConfig names (one per traced transaction). `maxBytes`: the
 * struct logger's ceiling on the logs it builds (the node's maxResponseBytes; 0 for none).
 */
export function makeTracer(spec: TracerSpec, maxBytes = 0): TxTracer {
  switch (spec.kind) {
    case 'struct':
      return new StructLogger(spec.config, maxBytes);
    case 'call':
      return new CallTracer(spec);
    case 'prestate':
      return new PrestateTracer(spec);
    case 'fourByte':
      return new FourByteTracer();
  }
}
