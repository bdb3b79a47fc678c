import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { Address, bigIntToBytes, bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { LeanMemory, installEngineSpeedups } from './internals.js';

const activated = (c: Common): number[] => (c as unknown as { _activatedEIPsCache: number[] })._activatedEIPsCache;

describe('engine speed-ups', () => {
  it('isActivatedEIP answers as the activated-EIP list does, on every hardfork and after a change', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    for (const hf of [Hardfork.Chainstart, Hardfork.London, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]) {
      common.setHardfork(hf);
      const list = activated(common);
      for (let eip = 0; eip < 8200; eip++) expect(common.isActivatedEIP(eip)).toBe(list.includes(eip));
    }
    // A copy shares the list until it changes hardfork, then answers for its own.
    const copy = common.copy();
    copy.setHardfork(Hardfork.London);
    expect(copy.isActivatedEIP(4844)).toBe(false);
    expect(common.isActivatedEIP(4844)).toBe(true);
  });

  it('runs code the same with its jump analysis cached: a JUMP loop counts to 10 twice', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const evm = await createEVM({ common });
    // i = 0; loop: i += 1; if (i < 10) goto loop; return i
    //   PUSH1 0 | JUMPDEST(2) PUSH1 1 ADD DUP1 PUSH1 10 GT PUSH1 2 JUMPI | PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const code = hexToBytes('0x60005b60010180600a1160025760005260206000f3');
    const to = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
    await evm.stateManager.putCode(to, code);
    for (let i = 0; i < 2; i++) {
      const res = await evm.runCall({ to, gasLimit: 100_000n });
      expect(res.execResult.exceptionError).toBeUndefined();
      expect(bytesToBigInt(res.execResult.returnValue)).toBe(10n);
    }
  });

  it('runInterpreter gives the same results with its merged runState built on first read', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const evm = await createEVM({ common });
    // Stores 7 at slot 1, logs topic 0x01 with no data, returns 0x2a; a second contract reverts.
    //   PUSH1 7 PUSH1 1 SSTORE PUSH1 1 PUSH1 0 PUSH1 0 LOG1 PUSH1 0x2a PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const ok = hexToBytes('0x6007600155600160006000a1602a60005260206000f3');
    //   PUSH1 0 PUSH1 0 REVERT
    const reverts = hexToBytes('0x60006000fd');
    const a = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
    const b = new Address(hexToBytes('0x00000000000000000000000000000000000000bb'));
    await evm.stateManager.putCode(a, ok);
    await evm.stateManager.putCode(b, reverts);
    const res = await evm.runCall({ to: a, gasLimit: 100_000n });
    expect(res.execResult.exceptionError).toBeUndefined();
    expect(bytesToBigInt(res.execResult.returnValue)).toBe(42n);
    expect(res.execResult.logs).toHaveLength(1);
    // 2 × PUSH1 + SSTORE (22,100 cold, new slot) + 3 × PUSH1 + LOG1 (750) + 4 × PUSH1 + MSTORE (3 + 3 memory) + RETURN
    expect(res.execResult.executionGasUsed).toBe(6n + 22_100n + 9n + 750n + 12n + 6n);
    expect(bytesToBigInt(await evm.stateManager.getStorage(a, setLengthLeft(hexToBytes('0x01'), 32)))).toBe(7n);
    // The merged run state is there for whoever reads it: the frame's environment and result.
    const rs = res.execResult.runState as unknown as { address: Address; gasLeft: bigint; logs: unknown[] };
    expect(rs.address.equals(a)).toBe(true);
    expect(rs.gasLeft).toBe(100_000n - res.execResult.executionGasUsed);
    expect(rs.logs).toHaveLength(1);
    const rev = await evm.runCall({ to: b, gasLimit: 100_000n });
    expect(rev.execResult.exceptionError?.error).toBe('revert');
    expect(rev.execResult.executionGasUsed).toBe(6n);
    expect(rev.execResult.logs).toEqual([]);
  });

  it('MSTORE and the frame memory give the same bytes, size and gas at every offset and word', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const evm = await createEVM({ common });
    const words = [0n, 1n, 0xfn, 0x123n, 2n ** 255n, 2n ** 256n - 1n, 0x0102030405060708090a0b0c0d0e0f10n];
    const offsets = [0, 1, 31, 33, 500, 511, 1000, 9000, 20000];
    const hex = (n: bigint, bytes: number) => n.toString(16).padStart(bytes * 2, '0');
    let code = '0x';
    const expected = new Uint8Array(20032);
    let gas = 0n;
    let highest = 0n;
    for (const [i, at] of offsets.entries()) {
      const w = words[i % words.length] as bigint;
      // PUSH32 w PUSH4 at MSTORE
      code += `7f${hex(w, 32)}63${hex(BigInt(at), 4)}52`;
      expected.set(setLengthLeft(bigIntToBytes(w), 32), at);
      const newWords = BigInt(Math.ceil((at + 32) / 32));
      const cost = (n: bigint) => n * 3n + (n * n) / 512n;
      const expansion = newWords > highest ? cost(newWords) - cost(highest) : 0n;
      if (newWords > highest) highest = newWords;
      gas += 3n + 3n + 3n + expansion;
    }
    // MSIZE PUSH1 0 RETURN: the whole memory
    code += '596000f3';
    gas += 2n + 3n;
    const to = new Address(hexToBytes('0x00000000000000000000000000000000000000cc'));
    await evm.stateManager.putCode(to, hexToBytes(code as `0x${string}`));
    const res = await evm.runCall({ to, gasLimit: 1_000_000n });
    expect(res.execResult.exceptionError).toBeUndefined();
    expect(res.execResult.returnValue.length).toBe(20032);
    expect(bytesToHex(res.execResult.returnValue)).toBe(bytesToHex(expected));
    expect(res.execResult.executionGasUsed).toBe(gas);
    const memory = (res.execResult.runState as unknown as { memory: unknown }).memory;
    expect(memory).toBeInstanceOf(LeanMemory);
  });

  it('LeanMemory starts empty, grows in words and keeps its bytes', () => {
    const m = new LeanMemory();
    expect(m.read(0, 0)).toEqual(new Uint8Array(0));
    m.write(3, 2, Uint8Array.of(7, 8));
    expect(m._store.length).toBeGreaterThanOrEqual(32);
    expect(m.read(0, 6)).toEqual(Uint8Array.of(0, 0, 0, 7, 8, 0));
    m.extend(10_000, 1);
    expect(m._store.length).toBeGreaterThanOrEqual(10_016);
    expect(m.read(3, 2)).toEqual(Uint8Array.of(7, 8));
    expect(m.read(10_000, 16)).toEqual(new Uint8Array(16));
    expect(() => m.write(0, 2, Uint8Array.of(1))).toThrow(/Invalid value size/);
  });

  it('steps plain opcodes inline with the same results as runStep (which a step listener forces)', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const programs: [string, bigint, string | undefined][] = [
      // a JUMP loop counting to 10, then MSTORE + RETURN
      ['0x60005b60010180600a1160025760005260206000f3', 100_000n, undefined],
      // arithmetic, DUP, SWAP, then STOP mid-code (the trailing INVALID never runs)
      ['0x6003600401600202806001900300fe', 100_000n, undefined],
      // INVALID: all gas gone
      ['0x6001fe', 100_000n, 'invalid opcode'],
      // out of gas on a static op (the fourth PUSH1)
      ['0x6001600160016001', 11n, 'out of gas'],
      // stack underflow on ADD
      ['0x600101', 100_000n, 'stack underflow'],
      // a JUMP to a non-JUMPDEST
      ['0x600356005b', 100_000n, 'invalid JUMP'],
      // dynamic gas: SSTORE 7 at 1, SLOAD it, MSTORE at 0x40, KECCAK256 of 64 bytes, LOG1, MLOAD, RETURN
      ['0x60076001556001546040526040600020600052600160206000a160405160005260206000f3', 200_000n, undefined],
      // MSTORE far out: out of gas in the dynamic (memory) part
      ['0x600163ffffff0052', 100_000n, 'out of gas'],
      // SSTORE with too little gas left (EIP-2200 sentry)
      ['0x6001600155', 2_300n, 'out of gas'],
      // CALL to the identity precompile with 3 bytes, then RETURN its output
      ['0x62abcdef6000526003601d6003601d6000600461fffff1506003601df3', 100_000n, undefined],
      // SLOAD with an empty stack
      ['0x54', 100_000n, 'stack underflow'],
      // REVERT with data
      ['0x602a60005260206000fd', 100_000n, 'revert'],
    ];
    for (const [i, [code, gasLimit, error]] of programs.entries()) {
      const to = new Address(hexToBytes(`0x${(0x100 + i).toString(16).padStart(40, '0')}`));
      // Each run on its own EVM: SLOAD/SSTORE gas depends on the slot and on what is warm.
      const withCode = async () => {
        const evm = await createEVM({ common });
        await evm.stateManager.putCode(to, hexToBytes(code as `0x${string}`));
        return evm;
      };
      const inline = await (await withCode()).runCall({ to, gasLimit });
      let steps = 0;
      const listened = await withCode();
      listened.events.on('step', () => {
        steps++;
      });
      const stepped = await listened.runCall({ to, gasLimit });
      expect(steps).toBeGreaterThan(0);
      // (an invalid JUMP's message goes on with where: ` at <code hash>/<address>:<pc>`)
      expect(inline.execResult.exceptionError?.error.split(' at ')[0]).toBe(error);
      expect(inline.execResult.exceptionError?.error).toBe(stepped.execResult.exceptionError?.error);
      expect(inline.execResult.executionGasUsed).toBe(stepped.execResult.executionGasUsed);
      expect(bytesToHex(inline.execResult.returnValue)).toBe(bytesToHex(stepped.execResult.returnValue));
      expect(inline.execResult.gasRefund).toBe(stepped.execResult.gasRefund);
      expect(inline.execResult.logs?.length).toBe(stepped.execResult.logs?.length);
    }
  });

  it('steps every opcode from the first await after a step listener is attached, in callee and caller', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const evm = await createEVM({ common });
    // Caller: PUSH1×6 (the CALL's arguments: out 0/0, in 0/0, value 0), PUSH20 callee, GAS,
    // CALL (pc 0x22), then POP PUSH1 1 PUSH1 2 ADD POP STOP. Callee: PUSH1 1 PUSH1 1 ADD POP STOP.
    const callee = new Address(hexToBytes('0x00000000000000000000000000000000000000dd'));
    const caller = new Address(hexToBytes('0x00000000000000000000000000000000000000de'));
    const code = `0x600060006000600060006000 73${callee.toString().slice(2)} 5a f1 50600160020150 00`.replace(/ /g, '');
    await evm.stateManager.putCode(caller, hexToBytes(code as `0x${string}`));
    await evm.stateManager.putCode(callee, hexToBytes('0x600160010150 00'.replace(/ /g, '') as `0x${string}`));
    const steps: [number, number][] = [];
    // The listener is attached while the caller waits on its CALL (as a tracer attaching late would).
    evm.events.on('beforeMessage', (message: { depth: number }, resolve?: () => void) => {
      if (message.depth === 1) {
        evm.events.on('step', (s: { depth: number; pc: number }) => {
          steps.push([s.depth, s.pc]);
        });
      }
      resolve?.();
    });
    const res = await evm.runCall({ to: caller, gasLimit: 200_000n });
    expect(res.execResult.exceptionError).toBeUndefined();
    expect(steps).toEqual([
      // the callee, whole
      [1, 0],
      [1, 2],
      [1, 4],
      [1, 5],
      [1, 6],
      // the caller, from the op after its CALL on
      [0, 0x23],
      [0, 0x24],
      [0, 0x26],
      [0, 0x28],
      [0, 0x29],
      [0, 0x2a],
    ]);
  });
});
