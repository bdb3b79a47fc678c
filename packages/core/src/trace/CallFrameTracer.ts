import type { EVM, Message } from '@ethereumjs/evm';
import { type Address, bytesToHex } from '@ethereumjs/util';
import { codeAddressOf, frameLogs, opcodeTable, runningContractBalance, setOpcodeTable } from '../evm/internals.js';
import type { CallFrame, CallType, FrameLog } from './callFrames.js';

/** What @ethereumjs/evm 10 keeps per opcode in its opcode table (evm/internals.ts; the interpreter reads it per run). */
interface OpEntry {
  opcodeInfo: unknown;
  opHandler: (runState: RunStateView, common: unknown) => unknown;
  gasHandler: unknown;
}

/** The parts of the interpreter's RunState the wrapped handlers read. */
interface RunStateView {
  stack: { peek(n?: number): bigint[] };
  interpreter: {
    getAddress(): Address;
  };
}

interface MessageResult {
  createdAddress?: Address;
  execResult: { executionGasUsed: bigint; returnValue: Uint8Array; exceptionError?: { error: string } };
}

const CALL_OPS: [number, CallType][] = [
  [0xf0, 'CREATE'],
  [0xf1, 'CALL'],
  [0xf2, 'CALLCODE'],
  [0xf4, 'DELEGATECALL'],
  [0xf5, 'CREATE2'],
  [0xfa, 'STATICCALL'],
];
const LOG_OPS = [0xa0, 0xa1, 0xa2, 0xa3, 0xa4];
const SELFDESTRUCT = 0xff;
const EMPTY = new Uint8Array(0);
const ADDRESS_MASK = (1n << 160n) - 1n;

/**
 * Builds the tree of call frames of the transactions an EVM runs, from its `beforeMessage` and
 * `afterMessage` events (not per-opcode `step` events, which would cost every instruction). A
 * message does not say which opcode made it — STATICCALL and CALL look alike inside a static
 * frame — nor do self-destructs and logs make messages, so while attached the tracer also wraps
 * the handlers of the call, create, LOG and SELFDESTRUCT opcodes in the EVM's opcode map: one
 * extra function call per such opcode, none for the others.
 *
 * Usage: `attach()`, run transactions, `take()` after each for its top frame, `detach()`. A
 * caller that traces again and again on one EVM (the miner, block after block) may `pause()`
 * instead of detaching: the opcode table goes back and nothing is recorded, but the two event
 * listeners stay (ignoring messages) until the next `attach()`. Adding and removing them per
 * block cost ~3 µs (eventemitter3 deletes the event's key, which turns its table of events
 * into a dictionary, and rebuilds it when the last listener goes).
 */
export class CallFrameTracer {
  private stack: CallFrame[] = [];
  /** The message of each open frame (a creation's address is known only once it ran). */
  private messages: Message[] = [];
  private root: CallFrame | undefined;
  private pendingType: CallType | undefined;
  private savedMap: OpEntry[] | undefined;
  private ourMap: OpEntry[] | undefined;
  /** The wrapped table last built, and the table it wraps. */
  private built: { base: OpEntry[]; map: OpEntry[] } | undefined;
  /** The event listeners are on the EVM (attached, or paused). */
  private listening = false;
  /** Messages are recorded (attached and not paused). */
  private active = false;

  constructor(
    private readonly evm: EVM,
    private readonly options: { withLogs?: boolean } = {},
  ) {}

  attach(): void {
    if (this.ourMap) return;
    this.savedMap = opcodeTable<OpEntry>(this.evm) as OpEntry[];
    // The same wrapped table as last time when the EVM's own is unchanged: the interpreter's
    // per-code analysis is cached per table (evm/internals.ts), so a new table per block
    // would throw that cache away.
    let map = this.built?.base === this.savedMap ? this.built.map : undefined;
    if (!map) {
      map = [...this.savedMap];
      for (const [op, type] of CALL_OPS) map[op] = this.wrap(map[op], () => this.markCall(type));
      map[SELFDESTRUCT] = this.wrapSelfdestruct(map[SELFDESTRUCT]);
      if (this.options.withLogs) for (const op of LOG_OPS) map[op] = this.wrapLog(map[op]);
      this.built = { base: this.savedMap, map };
    }
    setOpcodeTable(this.evm, map);
    this.ourMap = map;
    if (!this.listening) {
      this.evm.events.on('beforeMessage', this.onBefore);
      this.evm.events.on('afterMessage', this.onAfter);
      this.listening = true;
    }
    this.active = true;
  }

  /** Stops tracing: the EVM's opcode table is its own again and messages are ignored; the listeners stay. */
  pause(): void {
    if (!this.ourMap) return;
    // A hardfork change rebuilds the map; only put back the one we replaced.
    if (opcodeTable(this.evm) === this.ourMap && this.savedMap) setOpcodeTable(this.evm, this.savedMap);
    this.ourMap = undefined;
    this.savedMap = undefined;
    this.active = false;
    this.reset();
  }

  /** Stops tracing and leaves the EVM as it was found (no listeners). */
  detach(): void {
    this.pause();
    if (!this.listening) return;
    this.evm.events.off('beforeMessage', this.onBefore);
    this.evm.events.off('afterMessage', this.onAfter);
    this.listening = false;
  }

  /** The top frame of the transaction that just ran (undefined if it made no message), and a clean slate for the next. */
  take(): CallFrame | undefined {
    const root = this.root;
    this.reset();
    return root;
  }

  /** Forget a transaction that failed before or while running (e.g. refused by runTx's checks). */
  reset(): void {
    this.stack = [];
    this.messages = [];
    this.root = undefined;
    this.pendingType = undefined;
  }

  private readonly onBefore = (message: Message): void => {
    if (!this.active) return;
    const parent = this.stack[this.stack.length - 1];
    const isCreate = message.to === undefined;
    let type: CallType;
    if (this.pendingType !== undefined && parent !== undefined) type = this.pendingType;
    else if (isCreate) type = message.salt !== undefined ? 'CREATE2' : 'CREATE';
    else if (message.delegatecall) type = 'DELEGATECALL';
    else type = 'CALL';
    this.pendingType = undefined;
    const frame: CallFrame = {
      type,
      // A DELEGATECALL's message keeps the caller's caller (msg.sender); geth names the delegating contract.
      from: (type === 'DELEGATECALL' ? (message.to ?? message.caller) : message.caller).toString(),
      to: '',
      value: message.value,
      gas: message.gasLimit,
      gasUsed: 0n,
      input: message.data.slice(),
      output: EMPTY,
      depth: message.depth,
      calls: [],
      logs: [],
    };
    // `to` is written after the literal for a call (a creation's, in onAfter, once its address is
    // known): V8 marks a field written again as mutable, and with only creations rewriting it, a
    // node that mined value transfers had code (encodeBlockFrames) optimised on `to` being
    // constant, thrown away at its first creation ('code dependencies', --trace-generalization).
    if (!isCreate) frame.to = calleeOf(type, message);
    if (parent) parent.calls.push(frame);
    else this.root = frame;
    this.stack.push(frame);
    this.messages.push(message);
  };

  private readonly onAfter = (result: MessageResult): void => {
    if (!this.active) return;
    const frame = this.stack.pop();
    const message = this.messages.pop();
    if (!frame) return;
    const exec = result.execResult;
    frame.gasUsed = exec.executionGasUsed;
    frame.output = exec.returnValue.length > 0 ? exec.returnValue.slice() : EMPTY;
    if (frame.type === 'CREATE' || frame.type === 'CREATE2')
      frame.to = (result.createdAddress ?? message?.to)?.toString() ?? '';
    if (exec.exceptionError) {
      frame.error = exec.exceptionError.error;
      // A failed frame's logs (and those of its sub-calls) were rolled back: geth drops them too.
      clearLogs(frame);
      // geth gives a failed creation no code, and an exceptional halt no output.
      if (frame.error !== 'revert') frame.output = EMPTY;
    }
  };

  private markCall(type: CallType): void {
    this.pendingType = type;
  }

  private wrap(entry: OpEntry, before: () => void): OpEntry {
    const original = entry.opHandler;
    const self = this;
    return {
      ...entry,
      opHandler(runState, common) {
        before();
        const r = original(runState, common);
        // A call refused before it made a message (depth limit, balance) must not name the next one.
        if (r instanceof Promise)
          return r.finally(() => {
            self.pendingType = undefined;
          });
        self.pendingType = undefined;
        return r;
      },
    };
  }

  private wrapSelfdestruct(entry: OpEntry): OpEntry {
    const original = entry.opHandler;
    const self = this;
    return {
      ...entry,
      opHandler(runState, common) {
        const parent = self.stack[self.stack.length - 1];
        if (parent) {
          const [beneficiary] = runState.stack.peek(1);
          parent.calls.push({
            type: 'SELFDESTRUCT',
            from: runState.interpreter.getAddress().toString(),
            to: `0x${(beneficiary & ADDRESS_MASK).toString(16).padStart(40, '0')}`,
            value: runningContractBalance(runState),
            gas: 0n,
            gasUsed: 0n,
            input: EMPTY,
            output: EMPTY,
            depth: parent.depth + 1,
            calls: [],
            logs: [],
          });
        }
        return original(runState, common);
      },
    };
  }

  private wrapLog(entry: OpEntry): OpEntry {
    const original = entry.opHandler;
    const self = this;
    return {
      ...entry,
      opHandler(runState, common) {
        const r = original(runState, common);
        const frame = self.stack[self.stack.length - 1];
        const logs = frameLogs(runState);
        const log = logs[logs.length - 1];
        if (frame && log) {
          const entry: FrameLog = {
            address: bytesToHex(log[0]),
            topics: log[1].map((t) => bytesToHex(t)),
            data: log[2].slice(),
            position: frame.calls.length,
          };
          frame.logs.push(entry);
        }
        return r;
      },
    };
  }
}

/** DELEGATECALL and CALLCODE run the code of the message's code address in the caller's context; geth names that address. */
function calleeOf(type: CallType, message: Message): string {
  const callee = type === 'DELEGATECALL' || type === 'CALLCODE' ? (codeAddressOf(message) ?? message.to) : message.to;
  return callee?.toString() ?? '';
}

function clearLogs(frame: CallFrame): void {
  frame.logs = [];
  for (const c of frame.calls) clearLogs(c);
}
