import { type EVM, EVMError } from '@ethereumjs/evm';
import { opcodeTable } from '../evm/internals.js';

/** JUMP and JUMPI: every loop runs through one of them. */
const LOOP_OPS = [0x56, 0x57];
/** CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2: recursion without loops. */
const FRAME_OPS = [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa];
/** Wrapped ops between two reads of the clock (a read costs far more than a counter). */
const CHECK_EVERY = 256;
/** Longest stretch a call runs before it lets the event loop serve others. */
const SLICE_MS = 10;

interface OpEntry {
  opcodeInfo: { isAsync: boolean };
  opHandler: (...args: unknown[]) => unknown;
}

interface RunStateLike {
  gasLeft: bigint;
}

/**
 * A wall-clock limit for one eth_call / eth_estimateGas. @ethereumjs/evm runs opcodes in an
 * async loop that only ever awaits resolved promises, so a `while(true)` contract holds the
 * event loop: no timer can fire, and a `step` listener would make the EVM build a trace object
 * per opcode. Instead, while armed, the handlers of the loop and call opcodes of that one EVM
 * are wrapped: every CHECK_EVERY of them reads the clock; past the deadline the op fails as
 * out of gas (an ordinary EVM error, so every frame unwinds and the journal stays balanced) and
 * `timedOut` says why. Every SLICE_MS the next JUMP is made async and waits for setImmediate,
 * so other requests are served meanwhile. Disarming puts the original handlers back: mining
 * and everything else run the untouched EVM.
 */
export class ExecutionDeadline {
  /** Set once the deadline passed during execution. */
  timedOut = false;
  private end = 0;
  private lastSlice = 0;
  private count = 0;
  private yieldNext = false;

  constructor(readonly ms: number) {}

  /** Wraps `evm`'s handlers and starts the clock; the function returned restores them. */
  arm(evm: EVM): () => void {
    this.end = performance.now() + this.ms;
    this.lastSlice = performance.now();
    const map = opcodeTable<OpEntry>(evm);
    const restore: (() => void)[] = [];
    for (const op of [...LOOP_OPS, ...FRAME_OPS]) {
      const entry = map[op];
      if (entry === undefined) continue;
      const original = entry.opHandler;
      const originalInfo = entry.opcodeInfo;
      const wasAsync = originalInfo.isAsync;
      // Opcode objects are frozen: a loop op gets a copy whose isAsync may flip.
      const info = LOOP_OPS.includes(op) ? { ...originalInfo } : originalInfo;
      entry.opcodeInfo = info;
      const loop = LOOP_OPS.includes(op);
      entry.opHandler = (...args: unknown[]) => {
        // Decided before this call's own check: only a call the interpreter awaits may pause.
        const pause = loop && this.yieldNext && info.isAsync;
        this.check(args[0] as RunStateLike, loop ? info : undefined);
        const out = original(...args);
        if (pause) {
          this.yieldNext = false;
          info.isAsync = wasAsync;
          return new Promise<void>((resolve) =>
            setImmediate(() => {
              this.lastSlice = performance.now();
              resolve();
            }),
          );
        }
        return out;
      };
      restore.push(() => {
        entry.opHandler = original;
        entry.opcodeInfo = originalInfo;
      });
    }
    return () => {
      for (const r of restore) r();
    };
  }

  private check(runState: RunStateLike, loopInfo: { isAsync: boolean } | undefined): void {
    if (!this.timedOut) {
      if (++this.count < CHECK_EVERY) return;
      this.count = 0;
      const now = performance.now();
      if (now <= this.end) {
        // The interpreter awaits an op only when its info says async: switch it on so the next
        // JUMP can pause without costing every other JUMP an await.
        if (loopInfo !== undefined && now - this.lastSlice > SLICE_MS) {
          this.yieldNext = true;
          loopInfo.isAsync = true;
        }
        return;
      }
      this.timedOut = true;
    }
    runState.gasLeft = 0n;
    throw new EVMError(EVMError.errorMessages.OUT_OF_GAS);
  }
}
