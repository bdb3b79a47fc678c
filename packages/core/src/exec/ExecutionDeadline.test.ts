import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { opcodeTable } from '../evm/internals.js';
import { ExecutionDeadline } from './ExecutionDeadline.js';

/** JUMPDEST PUSH1 0 JUMP: a loop that ends only when the gas does. */
const LOOP = hexToBytes('0x5b600056');
/** PUSH1 4 JUMP INVALID JUMPDEST PUSH1 1 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: jumps over INVALID, returns 1. */
const JUMP_OVER = hexToBytes('0x600456fe5b600160005260206000f3');

type Entry = { opHandler: unknown; opcodeInfo: unknown };

describe('ExecutionDeadline', () => {
  it('installs its wrappers once: arming and disarming leave the opcode table as it is', async () => {
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
    const table = opcodeTable<Entry>(evm);
    const before = table.map((e) => e && { opHandler: e.opHandler, opcodeInfo: e.opcodeInfo });
    ExecutionDeadline.prepare(evm);
    const prepared = table.map((e) => e && { opHandler: e.opHandler, opcodeInfo: e.opcodeInfo });
    // JUMP, JUMPI and the call and create ops are wrapped; nothing else changed.
    const changed = prepared.flatMap((e, op) => (e?.opHandler !== before[op]?.opHandler ? [op] : []));
    expect(changed).toEqual([0x56, 0x57, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]);

    const deadline = new ExecutionDeadline(50);
    const disarm = deadline.arm(evm);
    expect(table.map((e) => e && { opHandler: e.opHandler, opcodeInfo: e.opcodeInfo })).toEqual(prepared);
    const looped = await evm.runCode({ code: LOOP, gasLimit: 10n ** 12n });
    disarm();
    expect(deadline.timedOut).toBe(true);
    expect(looped.exceptionError?.error).toBe('out of gas');
    expect(table.map((e) => e && { opHandler: e.opHandler, opcodeInfo: e.opcodeInfo })).toEqual(prepared);

    // Disarmed, the wrappers run the original ops: jumps work, and a loop runs until its gas is gone.
    const jumped = await evm.runCode({ code: JUMP_OVER, gasLimit: 100_000n });
    expect(jumped.exceptionError).toBeUndefined();
    expect(jumped.returnValue[31]).toBe(1);
    const bounded = await evm.runCode({ code: LOOP, gasLimit: 100_000n });
    expect(bounded.exceptionError?.error).toBe('out of gas');
    expect(bounded.executionGasUsed).toBe(100_000n);
  });

  it('arms an EVM that was not prepared', async () => {
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
    const deadline = new ExecutionDeadline(30);
    const disarm = deadline.arm(evm);
    const looped = await evm.runCode({ code: LOOP, gasLimit: 10n ** 12n });
    disarm();
    expect(deadline.timedOut).toBe(true);
    expect(looped.exceptionError?.error).toBe('out of gas');
  });
});
