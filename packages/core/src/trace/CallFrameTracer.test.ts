import { createTx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString, generateAddress, hexToBytes } from '@ethereumjs/util';
import { runTx } from '@ethereumjs/vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBalance, setCode } from '../dev/stateEdits.js';
import { opcodeTable } from '../evm/internals.js';
import { scratchVm } from '../exec/scratchVm.js';
import { createKernel } from '../kernel/createKernel.js';
import type { Kernel } from '../kernel/Kernel.js';
import { CallFrameTracer } from './CallFrameTracer.js';
import { type CallFrame, flattenFrames, gethError, hasErrorInInternalFrames } from './callFrames.js';

// Hand-assembled contracts, so that every expected gas figure below can be checked by hand.
const A = '0x00000000000000000000000000000000000000aa';
const C = '0x00000000000000000000000000000000000000cc';
const R = '0x00000000000000000000000000000000000000dd';
const S = '0x00000000000000000000000000000000000000ee';
const BENEFICIARY = '0x00000000000000000000000000000000000000b0';
const addr = (a: string) => a.slice(2);

// C: MSTORE 42 at 0; LOG1(0, 32, topic 1); RETURN(0, 32).
// Gas: 3+3+(3+3 memory) + 3+3+3 + (375+375+8*32) + 3+3 = 1033.
const C_CODE = '0x602a600052' + '600160206000a1' + '60206000f3';
// R: REVERT(0, 0). Gas: 3+3 = 6.
const R_CODE = '0x60006000fd';
// S: SELFDESTRUCT(BENEFICIARY).
const S_CODE = `0x73${addr(BENEFICIARY)}ff`;
// Init code that deploys the one-byte runtime 0x00: MSTORE8(0, 0); RETURN(0, 1).
const INIT = '60006000536001' + '6000f3';
const A_CODE =
  '0x' +
  // CALL(gas, C, 0, 0, 0, 0, 32)
  `60206000600060006000 73${addr(C)} 5a f1 50` +
  // STATICCALL(0xffff, C, 0, 0, 0, 0): C's LOG1 is a state change in a static frame
  `6000600060006000 73${addr(C)} 61ffff fa 50` +
  // DELEGATECALL(0xffff, R, 0, 0, 0, 0)
  `6000600060006000 73${addr(R)} 61ffff f4 50` +
  // CALL(gas, S, 0, 0, 0, 0, 0)
  `60006000600060006000 73${addr(S)} 5a f1 50` +
  // CREATE(0, 22, 10) of INIT stored right-aligned in word 0
  `69${INIT} 600052 600a 6016 6000 f0 50` +
  '00';

describe('CallFrameTracer', () => {
  let k: Kernel;
  let root: CallFrame;

  beforeAll(async () => {
    k = await createKernel({});
    const code = (hex: string) => hexToBytes(hex.replaceAll(' ', '') as `0x${string}`);
    await setCode(k.chain, createAddressFromString(A), code(A_CODE));
    await setCode(k.chain, createAddressFromString(C), code(C_CODE));
    await setCode(k.chain, createAddressFromString(R), code(R_CODE));
    await setCode(k.chain, createAddressFromString(S), code(S_CODE));
    await setBalance(k.chain, createAddressFromString(S), 5n);
    const head = k.chain.head.block;
    const vm = await scratchVm(k.chain, k.chain.headStateRoot, {
      number: head.header.number,
      timestamp: head.header.timestamp,
    });
    const sender = k.chain.accounts[0];
    const tx = createTx(
      { type: 2, to: A, gasLimit: 1_000_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, nonce: 0n },
      { common: k.chain.common },
    ).sign(sender.privateKey);
    const tracer = new CallFrameTracer(vm.evm, { withLogs: true });
    tracer.attach();
    await runTx(vm, { tx, block: head, skipHardForkValidation: true });
    const taken = tracer.take();
    tracer.detach();
    if (!taken) throw new Error('no frame');
    root = taken;
  });
  afterAll(() => k.close());

  it('names the top frame after the transaction', () => {
    expect(root.type).toBe('CALL');
    expect(root.from).toBe(k.chain.accounts[0].address.toString());
    expect(root.to).toBe(A);
    expect(root.depth).toBe(0);
    // Gas given to the top frame: the limit less the 21000 intrinsic gas (no calldata).
    expect(root.gas).toBe(1_000_000n - 21_000n);
    expect(root.error).toBeUndefined();
  });

  it('lists each sub-call with the opcode that made it', () => {
    expect(root.calls.map((c) => [c.type, c.from, c.to])).toEqual([
      ['CALL', A, C],
      ['STATICCALL', A, C],
      ['DELEGATECALL', A, R],
      ['CALL', A, S],
      ['CREATE', A, bytesToHex(generateAddress(hexToBytes(A), new Uint8Array(0)))],
    ]);
    expect(root.calls.every((c) => c.depth === 1)).toBe(true);
  });

  it('records gas, output, logs and errors per frame', () => {
    const [call, staticCall, delegate, toS, create] = root.calls;
    expect(call.gasUsed).toBe(1033n);
    expect(call.output).toEqual(hexToBytes(`0x${'2a'.padStart(64, '0')}`));
    expect(call.logs).toEqual([{ address: C, topics: [`0x${'1'.padStart(64, '0')}`], data: call.output, position: 0 }]);

    // A state change in a static frame halts it and burns all the gas it was given.
    expect(staticCall.gas).toBe(0xffffn);
    expect(staticCall.gasUsed).toBe(0xffffn);
    expect(staticCall.error).toBe('static state change');
    expect(gethError(staticCall.error ?? '')).toBe('write protection');
    expect(staticCall.logs).toEqual([]);

    expect(delegate.gas).toBe(0xffffn);
    expect(delegate.gasUsed).toBe(6n);
    expect(delegate.error).toBe('revert');

    expect(toS.calls).toEqual([
      expect.objectContaining({ type: 'SELFDESTRUCT', from: S, to: BENEFICIARY, value: 5n, depth: 2 }),
    ]);

    expect(create.output).toEqual(new Uint8Array([0]));
    expect(create.input).toEqual(hexToBytes(`0x${INIT}`));
  });

  it('flattens depth-first with trace addresses', () => {
    const flat = flattenFrames(root);
    expect(flat.map((f) => [f.frame.type, f.traceAddress])).toEqual([
      ['CALL', []],
      ['CALL', [0]],
      ['STATICCALL', [1]],
      ['DELEGATECALL', [2]],
      ['CALL', [3]],
      ['SELFDESTRUCT', [3, 0]],
      ['CREATE', [4]],
    ]);
    expect(hasErrorInInternalFrames(root)).toBe(true);
  });

  it('leaves the EVM as it found it once detached', async () => {
    const head = k.chain.head.block;
    const vm = await scratchVm(k.chain, k.chain.headStateRoot, {
      number: head.header.number,
      timestamp: head.header.timestamp,
    });
    const before = opcodeTable(vm.evm);
    const tracer = new CallFrameTracer(vm.evm);
    tracer.attach();
    expect(opcodeTable(vm.evm)).not.toBe(before);
    tracer.detach();
    expect(opcodeTable(vm.evm)).toBe(before);
    expect(vm.evm.events.listenerCount('beforeMessage')).toBe(0);
    expect(vm.evm.events.listenerCount('afterMessage')).toBe(0);
  });

  it('records nothing while paused and traces again once re-attached', async () => {
    const head = k.chain.head.block;
    const vm = await scratchVm(k.chain, k.chain.headStateRoot, {
      number: head.header.number,
      timestamp: head.header.timestamp,
    });
    const sender = k.chain.accounts[0];
    const call = (nonce: bigint) =>
      createTx(
        { type: 2, to: C, gasLimit: 100_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, nonce },
        { common: k.chain.common },
      ).sign(sender.privateKey);
    const before = opcodeTable(vm.evm);
    const tracer = new CallFrameTracer(vm.evm);
    tracer.attach();
    tracer.pause();
    expect(opcodeTable(vm.evm)).toBe(before);
    await runTx(vm, { tx: call(0n), block: head, skipHardForkValidation: true });
    expect(tracer.take()).toBeUndefined();
    tracer.attach();
    await runTx(vm, { tx: call(1n), block: head, skipHardForkValidation: true });
    const frame = tracer.take();
    expect(frame?.type).toBe('CALL');
    expect(frame?.to).toBe(C);
    expect(frame?.gasUsed).toBe(1033n);
    tracer.pause();
    tracer.attach();
    // One pair of listeners however often it was paused and attached again.
    expect(vm.evm.events.listenerCount('beforeMessage')).toBe(1);
    tracer.detach();
    expect(opcodeTable(vm.evm)).toBe(before);
    expect(vm.evm.events.listenerCount('beforeMessage')).toBe(0);
    expect(vm.evm.events.listenerCount('afterMessage')).toBe(0);
  });
});
