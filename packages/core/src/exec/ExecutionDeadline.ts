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

/** An opcode handler: the interpreter calls it with the run state and the Common, nothing else. */
type OpHandler = (runState: unknown, common: unknown) => unknown;

interface OpEntry {
  opcodeInfo: { isAsync: boolean };
  opHandler: OpHandler;
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
 * so other requests are served meanwhile.
 *
 * The wrappers stay in the table once installed (`prepare`, at kernel start for the head's EVM,
 * or the first `arm`): disarmed, a wrapper calls the original handler, which is what mining and
 * everything else then run. Arming only names the deadline. Swapping handlers and infos in and
 * out on every call changed objects the interpreter's optimised code was built on (the entries'
 * handler field turned mutable, JUMP's info another map), so the first eth_call of a node that
 * had mined threw away the interpreter loop's optimised code and a few others (~100-300 ms of
 * compiling again while the first calls ran slow).
 */
export class ExecutionDeadline {
  /** Set once the deadline passed during execution. */
  timedOut = false;
  // Doubles from the start (read only once armed, which sets them from performance.now()): a
  // field that starts as a small integer and later holds a double takes a new hidden class,
  // and the class every deadline then has was held by no object between two calls (see NEVER).
  private end = Number.NaN;
  private lastSlice = Number.NaN;
  private count = 0;
  private yieldNext = false;

  constructor(readonly ms: number) {}

  /**
   * Installs the timing wrappers in `evm`'s table, disarmed, if they are not there: done before the
   * EVM runs much, every object the interpreter sees later is already of its final shape.
   */
  static prepare(evm: EVM): void {
    wrapperSet(opcodeTable<OpEntry>(evm));
  }

  /** Starts the clock on `evm`'s wrapped handlers; the function returned disarms them. */
  arm(evm: EVM): () => void {
    this.end = performance.now() + this.ms;
    this.lastSlice = performance.now();
    const map = opcodeTable<OpEntry>(evm);
    const set = wrapperSet(map);
    // Another deadline armed on this EVM (not done today): wrap its wrappers, as arming always did.
    if (set.current !== undefined) return this.armOver(map);
    set.current = this;
    return () => {
      // A loop op made async to pause is synchronous again for whoever runs next.
      for (const w of set.ops) if (w.loop) w.info.isAsync = w.originalInfo.isAsync;
      set.current = undefined;
    };
  }

  /** The wrapped handler's work (called by the wrappers only): a clock check, then the op, made to pause the run when due. */
  run(op: WrappedOp, runState: unknown, common: unknown): unknown {
    // Decided before this call's own check: only a call the interpreter awaits may pause.
    const pause = op.loop && this.yieldNext && op.info.isAsync;
    this.check(runState as RunStateLike, op.loop ? op.info : undefined);
    const out = op.original(runState, common);
    if (pause) {
      this.yieldNext = false;
      op.info.isAsync = op.originalInfo.isAsync;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          this.lastSlice = performance.now();
          resolve();
        }),
      );
    }
    return out;
  }

  /** Wraps the handlers in place, over whatever they are now (a second deadline on one EVM). */
  private armOver(map: (OpEntry | undefined)[]): () => void {
    const restore: (() => void)[] = [];
    for (const opcode of [...LOOP_OPS, ...FRAME_OPS]) {
      const entry = map[opcode];
      if (entry === undefined) continue;
      const op = wrappedOp(entry, opcode);
      entry.opHandler = (runState, common) => this.run(op, runState, common);
      entry.opcodeInfo = op.info;
      restore.push(() => {
        entry.opHandler = op.original;
        entry.opcodeInfo = op.originalInfo;
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

/** One wrapped opcode: its table entry, the original handler and info, and the wrapper's. */
interface WrappedOp {
  opcode: number;
  entry: OpEntry;
  loop: boolean;
  original: OpHandler;
  originalInfo: { isAsync: boolean };
  /** A loop op's own copy of the info (opcode objects are frozen), whose isAsync may flip. */
  info: { isAsync: boolean };
  handler: OpHandler;
}

function wrappedOp(entry: OpEntry, opcode: number): WrappedOp {
  const loop = LOOP_OPS.includes(opcode);
  const originalInfo = entry.opcodeInfo;
  return {
    opcode,
    entry,
    loop,
    original: entry.opHandler,
    originalInfo,
    info: loop ? { ...originalInfo } : originalInfo,
    handler: entry.opHandler,
  };
}

/**
 * The wrappers of one opcode table, made and installed once (an EVM's table is rebuilt only on a
 * hardfork change): arming names the deadline they report to, instead of making eight closures
 * and info copies per call.
 */
interface WrapperSet {
  current: ExecutionDeadline | undefined;
  ops: WrappedOp[];
}

const wrapperSets = new WeakMap<object, WrapperSet>();

/**
 * A deadline that is never armed: set and cleared once as `current` when a set is made (see
 * below). Alive for the process's life, it also keeps the hidden class of every deadline alive:
 * V8 holds a class's map transitions weakly, and the wrappers' feedback at `d.run` (from the
 * first eth_calls that ran code) went with that class once the calls' deadlines were collected,
 * so the first eth_call after mining contract calls threw the optimised wrapper away
 * ('Insufficient type feedback', --trace-deopt-verbose, W4 after W1,W2).
 */
const NEVER = new ExecutionDeadline(0);

function wrapperSet(map: (OpEntry | undefined)[]): WrapperSet {
  const set = wrapperSets.get(map);
  // Still the table's entries and wrappers (someone may have replaced one since): reuse it.
  if (set !== undefined && (set.current !== undefined || set.ops.every((w) => isInstalled(w, map)))) return set;
  const made: WrapperSet = { current: undefined, ops: [] };
  for (const opcode of [...LOOP_OPS, ...FRAME_OPS]) {
    const entry = map[opcode];
    if (entry === undefined) continue;
    const op = wrappedOp(entry, opcode);
    // Two parameters, not a rest array: a JUMP runs every few opcodes.
    op.handler = (runState, common) => {
      const d = made.current;
      return d === undefined ? op.original(runState, common) : d.run(op, runState, common);
    };
    made.ops.push(op);
  }
  // Every field arming and pausing will write is written once now, with each kind of value it
  // will hold: V8 marks a field rewritten later as mutable (or of a wider type) and throws away
  // the optimised code that assumed otherwise, mid-request.
  made.current = NEVER;
  made.current = undefined;
  for (const w of made.ops) {
    if (w.loop) {
      w.info.isAsync = !w.originalInfo.isAsync;
      w.info.isAsync = w.originalInfo.isAsync;
    }
    w.entry.opHandler = w.handler;
    w.entry.opcodeInfo = w.info;
  }
  wrapperSets.set(map, made);
  return made;
}

function isInstalled(w: WrappedOp, map: (OpEntry | undefined)[]): boolean {
  return map[w.opcode] === w.entry && w.entry.opHandler === w.handler && w.entry.opcodeInfo === w.info;
}
