import type { EVM, Message } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { keepPrimed } from '../index/keepPrimed.js';
import { CONSOLE_ADDRESS, decodeConsoleCall, formatConsoleArgs } from './decodeConsole.js';

/** One console.sol call: the printed line, its arguments as text, and the contract that made it. */
export interface ConsoleLine {
  message: string;
  args: string[];
  /** The address the calling code ran as (lowercase hex). */
  address: string;
}

const CONSOLE_BYTES = hexToBytes(CONSOLE_ADDRESS);

/** Whether an address is console.sol's, compared byte by byte (no hex string per message). */
function isConsoleAddress(bytes: Uint8Array): boolean {
  if (bytes.length !== 20) return false;
  // From the end: the ASCII "console.log" tells other addresses apart at once.
  for (let i = 19; i >= 0; i--) if (bytes[i] !== CONSOLE_BYTES[i]) return false;
  return true;
}

/**
 * Collects console.sol calls from an EVM's `beforeMessage` event: a message to the console
 * address (an account without code, so the call costs what any call to an empty account costs,
 * as on Hardhat). The check per message is one address comparison; decoding happens only for
 * console calls. Lines are kept in the order the calls ran, reverted frames included (Hardhat
 * prints those too).
 */
export class ConsoleCapture {
  private lines: ConsoleLine[] = [];
  private attachedTo: EVM | undefined;

  private readonly onMessage = (message: Message): void => {
    const line = consoleLineOf(message);
    if (line !== undefined) this.lines.push(line);
  };

  attach(evm: EVM): void {
    if (this.attachedTo) return;
    evm.events.on('beforeMessage', this.onMessage);
    this.attachedTo = evm;
  }

  detach(): void {
    this.attachedTo?.events.off('beforeMessage', this.onMessage);
    this.attachedTo = undefined;
  }

  /** The lines since the last take, and a clean slate. */
  take(): ConsoleLine[] {
    const out = this.lines;
    this.lines = [];
    return out;
  }
}

/** Runs `fn` with console calls collected; the lines come back with its result or its error. */
export async function withConsole<T>(
  evm: EVM,
  fn: () => Promise<T>,
): Promise<{ lines: ConsoleLine[] } & ({ ok: true; value: T } | { ok: false; error: unknown })> {
  const capture = new ConsoleCapture();
  capture.attach(evm);
  try {
    const value = await fn();
    return { ok: true, value, lines: capture.take() };
  } catch (error) {
    return { ok: false, error, lines: capture.take() };
  } finally {
    capture.detach();
  }
}

/**
 * Console lines per transaction of a block being mined: the VM's beforeTx/afterTx bracket each
 * transaction, so messages outside them (the block's system calls) are not counted. Lines are
 * keyed by the transaction object, which the miner maps to its hash once the block is built.
 *
 * The miner makes one per block that may print (every block of contract calls); the event
 * listeners behind it are added to a VM once (TxConsoleListeners) and left there, idle between
 * blocks, because adding and removing three listeners per block had eventemitter3 delete and
 * re-add the events' keys (their table became a dictionary) and cost more than the block's
 * console check itself. `attach` makes this capture the one they feed; `detach` stops it.
 */
export class TxConsoleCapture {
  /** The lines of the transaction running, since its beforeTx. */
  lines: ConsoleLine[] = [];
  current: TypedTransaction | undefined = undefined;
  readonly byTx = new Map<TypedTransaction, ConsoleLine[]>();
  private listeners: TxConsoleListeners | undefined = undefined;

  constructor(private readonly vm: VM) {}

  /**
   * The capture of a block the miner assembles, called for every block: a new one attached to
   * `vm` when the block may print (`may`), else the idle one, which nothing feeds (its `byTx`
   * stays empty; `detach` leaves it as it was). One call site for both kinds of block: a fresh
   * node's value transfers never made a capture, and the first contract's block threw the
   * miner's optimised assembleAndCommit away at the branch that made one ('Insufficient type
   * feedback' at `chain.vm`, W4 after W1,W2). The attaching branch here gets its feedback from
   * primeTxConsoleCapture at the miner's start.
   */
  static forBlock(vm: VM, may: boolean): TxConsoleCapture {
    if (!may) return IDLE_CAPTURE;
    const capture = new TxConsoleCapture(vm);
    capture.attach();
    return capture;
  }

  attach(): void {
    let l = listenersByVm.get(this.vm);
    if (l === undefined) {
      l = new TxConsoleListeners(this.vm);
      listenersByVm.set(this.vm, l);
    }
    l.follow(this.vm.evm as EVM);
    l.active = this;
    this.listeners = l;
  }

  detach(): void {
    const l = this.listeners;
    if (l !== undefined && l.active === this) l.active = undefined;
    this.listeners = undefined;
    this.current = undefined;
    this.lines = [];
  }
}

const listenersByVm = new WeakMap<VM, TxConsoleListeners>();

/** The capture of blocks that cannot print (see TxConsoleCapture.forBlock): never attached. */
const IDLE_CAPTURE = new TxConsoleCapture(undefined as unknown as VM);

/** Rounds of the priming: V8 keeps a function's feedback once it has run ~8 times. */
const PRIMING_ROUNDS = 16;

/**
 * Runs TxConsoleCapture.forBlock's attaching branch (and attach, the listeners' creation, detach)
 * on `vm` before any block is mined, then takes the listeners off again, so that `vm`'s events
 * are as they were: the miner's value-transfer blocks add none, and the VM emits its
 * transaction and message events only to listeners (evm/leanEmit.ts). Only while `vm` and its
 * EVM have no listener of those events (then removing ours leaves the emitters as they were);
 * otherwise it does nothing. The last capture and listeners are kept for the process's life
 * (V8 holds map transitions weakly).
 */
export function primeTxConsoleCapture(vm: VM): void {
  const evm = vm.evm as EVM;
  const vmEvents = vm.events;
  if (listenersByVm.has(vm)) return;
  if (vmEvents.listenerCount('beforeTx') + vmEvents.listenerCount('afterTx') > 0) return;
  if (evm.events.listenerCount('beforeMessage') > 0) return;
  let capture = IDLE_CAPTURE;
  for (let i = 0; i < PRIMING_ROUNDS; i++) {
    capture = TxConsoleCapture.forBlock(vm, true);
    capture.detach();
    TxConsoleCapture.forBlock(vm, false).detach();
  }
  const listeners = listenersByVm.get(vm);
  if (listeners === undefined) return;
  // Off in the reverse order of on: an emitter left with no event gets a fresh table.
  listeners.unfollow();
  vmEvents.off('afterTx', listeners.onAfterTx);
  vmEvents.off('beforeTx', listeners.onBeforeTx);
  listenersByVm.delete(vm);
  keepPrimed(capture);
  keepPrimed(listeners);
}

/** The beforeTx/afterTx/beforeMessage listeners of one VM, feeding its attached TxConsoleCapture (none: ignored). */
class TxConsoleListeners {
  active: TxConsoleCapture | undefined = undefined;
  private evm: EVM | undefined = undefined;

  constructor(vm: VM) {
    vm.events.on('beforeTx', this.onBeforeTx);
    vm.events.on('afterTx', this.onAfterTx);
  }

  /** Listens to the messages of `evm` (the VM's, which a hardfork change may replace). */
  follow(evm: EVM): void {
    if (this.evm === evm) return;
    this.evm?.events.off('beforeMessage', this.onMessage);
    evm.events.on('beforeMessage', this.onMessage);
    this.evm = evm;
  }

  /** Stops listening to the EVM's messages (primeTxConsoleCapture). */
  unfollow(): void {
    this.evm?.events.off('beforeMessage', this.onMessage);
    this.evm = undefined;
  }

  readonly onBeforeTx = (tx: TypedTransaction): void => {
    const c = this.active;
    if (c === undefined) return;
    c.lines = [];
    c.current = tx;
  };

  readonly onAfterTx = (): void => {
    const c = this.active;
    if (c === undefined) return;
    const lines = c.lines;
    c.lines = [];
    if (c.current && lines.length > 0) c.byTx.set(c.current, lines);
    c.current = undefined;
  };

  private readonly onMessage = (message: Message): void => {
    const c = this.active;
    if (c === undefined) return;
    const line = consoleLineOf(message);
    if (line !== undefined) c.lines.push(line);
  };
}

/** The console.sol line a message prints, if it is a console call. */
function consoleLineOf(message: Message): ConsoleLine | undefined {
  const to = message.to;
  if (to === undefined || !isConsoleAddress(to.bytes)) return undefined;
  const args = decodeConsoleCall(message.data);
  if (!args) return undefined;
  return { message: formatConsoleArgs(args), args, address: bytesToHex(message.caller.bytes) };
}

/**
 * The kernel's `console` event: one console.sol line, with the mined transaction it came from
 * (`txHash`) or the call that ran it (`call`: eth_call, or eth_estimateGas when enabled).
 */
export interface ConsoleEvent extends ConsoleLine {
  txHash?: string;
  call?: { method: 'eth_call' | 'eth_estimateGas'; from?: string; to?: string };
}
