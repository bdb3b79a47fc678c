import type { RawLog } from '@ashlar/core';
import type { EVMResult, InterpreterStep } from '@ethereumjs/evm';
import { bigIntToBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/** The pseudo-address eth_simulateV1 reports ETH transfers from (ERC-7528). */
const ETH_ADDRESS = hexToBytes('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
/** keccak256("Transfer(address,address,uint256)"), the ERC-20 event a transfer log mimics. */
const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');

const word = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32);

/** A log with the block-wide index it was given when emitted. */
export interface IndexedLog {
  log: RawLog;
  index: number;
}

interface MessageLike {
  caller: { bytes: Uint8Array };
  to?: { bytes: Uint8Array };
  value: bigint;
  delegatecall: boolean;
}

/**
 * The logs of a simulated block's calls, collected as geth's simulator does: in execution order,
 * with (traceTransfers) an ERC-20-style Transfer log from 0xeeee…eeee for every frame or
 * self-destruct that moves ETH. A failing inner frame takes its logs and their indexes with it;
 * a failing call shows no logs but keeps the indexes it used (geth's counting).
 */
export class LogTracer {
  /** One log list per open call frame; the bottom one collects the call's result. */
  private frames: IndexedLog[][] = [[]];
  private count = 0;

  constructor(
    private readonly vm: VM,
    private readonly transfers: boolean,
  ) {}

  attach(): void {
    const events = this.vm.evm.events;
    events?.on('beforeMessage', this.onEnter);
    events?.on('afterMessage', this.onExit);
    events?.on('step', this.onStep);
  }

  detach(): void {
    const events = this.vm.evm.events;
    events?.off('beforeMessage', this.onEnter);
    events?.off('afterMessage', this.onExit);
    events?.off('step', this.onStep);
  }

  /** The finished call's logs (none when it failed); the next call starts clean. */
  take(failed: boolean): IndexedLog[] {
    const logs = this.frames[0];
    this.frames = [[]];
    return failed ? [] : logs;
  }

  private capture(log: RawLog): void {
    this.frames[this.frames.length - 1]?.push({ log, index: this.count++ });
  }

  private transfer(from: Uint8Array, to: Uint8Array, value: bigint): void {
    if (this.transfers && value > 0n)
      this.capture([ETH_ADDRESS, [TRANSFER_TOPIC, setLengthLeft(from, 32), setLengthLeft(to, 32)], word(value)]);
  }

  private readonly onEnter = (msg: MessageLike): void => {
    this.frames.push([]);
    if (!msg.delegatecall && msg.to !== undefined) this.transfer(msg.caller.bytes, msg.to.bytes, msg.value);
  };

  private readonly onExit = (result: EVMResult): void => {
    const frame = this.frames.pop() ?? [];
    const parent = this.frames[this.frames.length - 1];
    if (!result.execResult.exceptionError) parent?.push(...frame);
    else if (this.frames.length > 1) this.count -= frame.length;
    // The outermost frame's failure keeps the count (see take()).
    else parent?.push(...frame);
  };

  private readonly onStep = async (step: InterpreterStep): Promise<void> => {
    const name = step.opcode.name;
    if (name === 'SELFDESTRUCT') {
      const balance = (await step.stateManager.getAccount(step.address))?.balance ?? 0n;
      const beneficiary = setLengthLeft(bigIntToBytes(step.stack[step.stack.length - 1] ?? 0n), 20);
      this.transfer(step.address.bytes, beneficiary, balance);
      return;
    }
    if (!name.startsWith('LOG')) return;
    const n = Number(name.slice(3));
    const stack = step.stack;
    const top = stack.length - 1;
    const offset = Number(stack[top]);
    const size = Number(stack[top - 1]);
    const topics: Uint8Array[] = [];
    for (let i = 0; i < n; i++) topics.push(word(stack[top - 2 - i]));
    const data = new Uint8Array(size);
    data.set(step.memory.subarray(offset, offset + size));
    this.capture([step.address.bytes, topics, data]);
  };
}
