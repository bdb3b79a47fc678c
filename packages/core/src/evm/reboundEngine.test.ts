import { readFileSync } from 'node:fs';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { type EVM, createEVM } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import * as util from '@ethereumjs/util';
import { Address, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import * as fast from './fastBytes.js';
import { installEngineSpeedups } from './internals.js';
import { reboundEngine } from './reboundEngine.js';

/** What a call throws, as its message (undefined: it returned). */
function thrown(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return undefined;
}

/** The result and the error of a call, in a form toEqual compares (arrays by their bytes). */
function outcome(f: () => unknown): unknown {
  let value: unknown;
  const error = thrown(() => {
    value = f();
  });
  if (value instanceof Uint8Array)
    value = { bytes: bytesToHex(value), length: value.length, type: value.constructor.name };
  return { value, error };
}

const BYTES = [
  new Uint8Array(0),
  Uint8Array.of(0),
  Uint8Array.of(0, 0),
  Uint8Array.of(7),
  Uint8Array.of(0xff),
  Uint8Array.of(1, 0),
  Uint8Array.of(0, 1, 2, 3, 4, 5),
  Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
  Uint8Array.of(1, 2, 3, 4, 5, 6, 7),
  new Uint8Array(20).fill(0xab),
  new Uint8Array(31).fill(1),
  new Uint8Array(32),
  new Uint8Array(32).fill(0xff),
  Uint8Array.from({ length: 32 }, (_, i) => i),
  new Uint8Array(33).fill(2),
  Buffer.from('00ff10', 'hex'),
  new Uint8Array(64).subarray(10, 42).fill(9),
];
const NOT_BYTES: unknown[] = [undefined, null, '0x12', [1, 2], 5, new Uint16Array(2)];
const NUMBERS = [
  0n,
  1n,
  0xfn,
  0x10n,
  0xffn,
  0x100n,
  0xfffn,
  0x1234n,
  2n ** 53n + 1n,
  2n ** 64n,
  2n ** 255n,
  2n ** 256n - 1n,
  2n ** 300n,
  -1n,
];

describe('fastBytes: @ethereumjs/util conversions, same results and errors', () => {
  it('setLengthLeft and setLengthRight pad, keep and refuse as the originals', () => {
    for (const b of [...BYTES, ...NOT_BYTES]) {
      for (const len of [0, 1, 2, 20, 32, 33]) {
        const a = b as Uint8Array;
        expect(outcome(() => fast.setLengthLeft(a, len))).toEqual(outcome(() => util.setLengthLeft(a, len)));
        expect(outcome(() => fast.setLengthRight(a, len))).toEqual(outcome(() => util.setLengthRight(a, len)));
        const t = { allowTruncate: true };
        expect(outcome(() => fast.setLengthLeft(a, len, t))).toEqual(outcome(() => util.setLengthLeft(a, len, t)));
        expect(outcome(() => fast.setLengthRight(a, len, t))).toEqual(outcome(() => util.setLengthRight(a, len, t)));
      }
    }
    // Unchanged length: the same array, as the original returns it.
    const word = new Uint8Array(32).fill(3);
    expect(fast.setLengthLeft(word, 32)).toBe(word);
    expect(fast.setLengthRight(word, 32)).toBe(word);
  });

  it('bigIntToBytes, bytesToBigInt, bytesToHex, bytesToUnprefixedHex answer as the originals', () => {
    for (const n of NUMBERS) {
      expect(outcome(() => fast.bigIntToBytes(n))).toEqual(outcome(() => util.bigIntToBytes(n)));
      expect(outcome(() => fast.bigIntToBytes(n, true))).toEqual(outcome(() => util.bigIntToBytes(n, true)));
    }
    expect(outcome(() => fast.bigIntToBytes(5 as unknown as bigint))).toEqual(
      outcome(() => util.bigIntToBytes(5 as unknown as bigint)),
    );
    for (const b of [...BYTES, ...NOT_BYTES]) {
      const a = b as Uint8Array;
      expect(outcome(() => fast.bytesToBigInt(a))).toEqual(outcome(() => util.bytesToBigInt(a)));
      // (little-endian reverses a Buffer in place: its slice() is a view; each side gets a copy)
      const copy = () => (a instanceof Uint8Array ? Uint8Array.from(a) : a);
      expect(outcome(() => fast.bytesToBigInt(copy(), true))).toEqual(outcome(() => util.bytesToBigInt(copy(), true)));
      expect(outcome(() => fast.bytesToHex(a))).toEqual(outcome(() => util.bytesToHex(a)));
      expect(outcome(() => fast.bytesToUnprefixedHex(a))).toEqual(outcome(() => util.bytesToUnprefixedHex(a)));
    }
    // Every byte value at every position of a word, through both directions.
    for (let i = 0; i < 32; i++) {
      for (const v of [1, 0x7f, 0x80, 0xff]) {
        const w = new Uint8Array(32);
        w[i] = v;
        const n = util.bytesToBigInt(w);
        expect(fast.bytesToBigInt(w)).toBe(n);
        expect(bytesToHex(fast.bigIntToBytes(n))).toBe(bytesToHex(util.bigIntToBytes(n)));
      }
    }
  });

  it('hexToBytes and unprefixedHexToBytes decode and refuse as the originals', () => {
    const hexes = ['', '0', '00', 'f', 'abc', 'ABCDEF', 'aBcD09', '0x', 'x0', 'zz', '12g4', 'é1', '1 2', '-1'];
    const inputs: unknown[] = [...hexes, ...hexes.map((h) => `0x${h}`), `0x${'ab'.repeat(20)}`, `0x${'0'.repeat(65)}`];
    inputs.push(undefined, null, 12, ['0x12']);
    for (const h of inputs) {
      const x = h as `0x${string}`;
      expect(outcome(() => fast.hexToBytes(x))).toEqual(outcome(() => util.hexToBytes(x)));
      expect(outcome(() => fast.unprefixedHexToBytes(x))).toEqual(outcome(() => util.unprefixedHexToBytes(x)));
    }
  });

  it('mod wraps at 2^256 as the original, and leaves every other modulus to it', async () => {
    const dir = new URL('../../../../node_modules/@ethereumjs/evm/dist/esm/opcodes/util.js', import.meta.url);
    const { mod } = (await import(dir.href)) as { mod: (a: bigint, b: bigint) => bigint };
    const fastMod = fast.makeMod(mod);
    const T = 2n ** 256n;
    const values = [0n, 1n, 2n, 7n, 2n ** 64n, 2n ** 255n, T - 1n, T, T + 1n, 2n * T + 3n, (T - 1n) * (T - 1n)];
    for (const a of [...values, ...values.map((v) => -v)]) {
      for (const b of [T, 1n, 3n, 2n ** 128n + 1n, T - 1n, -5n]) expect(fastMod(a, b)).toBe(mod(a, b));
    }
    expect(thrown(() => fastMod(1n, 0n))).toBe(thrown(() => mod(1n, 0n)));
  });

  it('setLengthLeftStorage empties zero values and pads the rest as the original', async () => {
    await installEngineSpeedups();
    const dir = new URL('../../../../node_modules/@ethereumjs/evm/dist/esm/opcodes/util.js', import.meta.url);
    const { setLengthLeftStorage } = (await import(dir.href)) as {
      setLengthLeftStorage: (v: Uint8Array) => Uint8Array;
    };
    const fastStorage = fast.makeSetLengthLeftStorage(setLengthLeftStorage);
    for (const b of [...BYTES, ...NOT_BYTES]) {
      const a = b as Uint8Array;
      expect(outcome(() => fastStorage(a))).toEqual(outcome(() => setLengthLeftStorage(a)));
    }
  });
});

// ---------------------------------------------------------------------------------------------

/** Runs `f` with every rebound function put back to its original (EVMs made inside copy those). */
async function withOriginals<T>(f: () => Promise<T>): Promise<T> {
  for (const r of reboundEngine.functions) r.restore('original');
  try {
    return await f();
  } finally {
    for (const r of reboundEngine.functions) r.restore('rebound');
  }
}

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const push32 = (n: bigint) => `7f${word(n)}`;

/**
 * Storage writes of every kind (new slot, reset to zero, dirty slot written again, a big value),
 * then CALLDATALOAD at and past the end, CALLER, ORIGIN, COINBASE, PREVRANDAO, MLOAD, KECCAK256,
 * LOG0/LOG1/LOG4 with small, zero and big topics, SLOAD, and 256 bytes of memory returned.
 */
const PROGRAM = [
  '6007600155', // slot1 = 7
  '6000600155', // slot1 = 0
  `${push32(2n ** 256n - 1n)}600255`, // slot2 = max
  '6003600255', // slot2 = 3
  '600035', // CALLDATALOAD 0
  '60043501', // + CALLDATALOAD 4
  '601e3501', // + CALLDATALOAD 30
  '60643501', // + CALLDATALOAD 100 (past the end)
  '600052', // MSTORE 0
  '33602052', // CALLER → 32
  '32604052', // ORIGIN → 64
  '41606052', // COINBASE → 96
  '44608052', // PREVRANDAO → 128
  '60005160a052', // MLOAD 0 → 160
  '604060002060c052', // KECCAK256(mem[0..64]) → 192
  '60206000a0', // LOG0 mem[0..32]
  '600060206000a1', // LOG1 topic 0
  `${push32(2n ** 255n + 5n)}6001610100600060086003a4`, // LOG4 mem[3..11]
  '60025460e052', // SLOAD 2 → 224
  '6101006000f3', // RETURN mem[0..256]
].join('');

const CALLDATA = `0x${'a1b2c3d4'}${word(0x1234n)}${'ff'.repeat(8)}`;

async function runPrograms(hardfork: Hardfork, stepped = false): Promise<unknown[]> {
  const evm: EVM = await createEVM({
    common: new Common({ chain: Mainnet, hardfork }),
    stateManager: new MerkleStateManager(),
  });
  // A step listener sends every opcode through the engine's own runStep.
  let steps = 0;
  if (stepped) {
    evm.events.on('step', () => {
      steps++;
    });
  }
  const to = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
  const caller = new Address(hexToBytes('0x1000000000000000000000000000000000000001'));
  await evm.stateManager.putCode(to, hexToBytes(`0x${PROGRAM}`));
  const out: unknown[] = [];
  const record = async (opts: Parameters<EVM['runCall']>[0]) => {
    const r = await evm.runCall({ to, caller, origin: caller, ...opts });
    const slot = async (n: bigint) =>
      bytesToHex(await evm.stateManager.getStorage(to, setLengthLeft(util.bigIntToBytes(n), 32)));
    out.push({
      error: r.execResult.exceptionError?.error,
      gas: r.execResult.executionGasUsed,
      refund: r.execResult.gasRefund,
      returned: bytesToHex(r.execResult.returnValue),
      logs: (r.execResult.logs ?? []).map(([a, topics, data]) => [
        bytesToHex(a),
        topics.map(bytesToHex),
        bytesToHex(data),
      ]),
      slots: [await slot(1n), await slot(2n)],
    });
  };
  // Twice on the same state (the second run finds slot 2 set), then out of gas at the SSTORE
  // sentry, then static.
  await record({ gasLimit: 1_000_000n, data: hexToBytes(CALLDATA) });
  await record({ gasLimit: 1_000_000n, data: hexToBytes(CALLDATA) });
  await record({ gasLimit: 2306n });
  await record({ gasLimit: 1_000_000n, isStatic: true });
  // Out of gas in memory expansion (MSTORE far out, then MLOAD and KECCAK256 far out)
  for (const code of ['0x600163ffffff0052', '0x63ffffff0051', '0x600163ffffff0020']) {
    await evm.stateManager.putCode(to, hexToBytes(code as `0x${string}`));
    await record({ gasLimit: 100_000n });
  }
  out.push(stepped ? steps > 0 : 'not stepped');
  return out;
}

/** test/contracts' Token: deploy, transfers (one too large), balanceOf; each call's outcome. */
async function runToken(hardfork: Hardfork): Promise<unknown[]> {
  const artifacts = JSON.parse(
    readFileSync(new URL('../../../../test/contracts/artifacts.json', import.meta.url), 'utf8'),
  ) as { Token: { bytecode: string } };
  const text = (s: string) => word(s.length) + Buffer.from(s).toString('hex').padEnd(64, '0');
  const deploy = artifacts.Token.bytecode + word(96) + word(96 + 64) + word(10n ** 30n) + text('T') + text('TT');
  const evm: EVM = await createEVM({
    common: new Common({ chain: Mainnet, hardfork }),
    stateManager: new MerkleStateManager(),
  });
  const alice = new Address(hexToBytes('0x1000000000000000000000000000000000000001'));
  const bob = new Address(hexToBytes('0x2000000000000000000000000000000000000002'));
  const out: unknown[] = [];
  const created = await evm.runCall({ caller: alice, data: hexToBytes(deploy as `0x${string}`), gasLimit: 5_000_000n });
  const token = created.createdAddress as Address;
  out.push([created.execResult.exceptionError?.error, created.execResult.executionGasUsed, token.toString()]);
  const addr = (a: Address) => word(BigInt(a.toString()));
  const calls: [Address, string][] = [
    [alice, `a9059cbb${addr(bob)}${word(1000n)}`],
    [alice, `a9059cbb${addr(bob)}${word(1n)}`],
    [bob, `a9059cbb${addr(alice)}${word(1001n)}`],
    [bob, `a9059cbb${addr(alice)}${word(1002n)}`],
    [bob, `70a08231${addr(bob)}`],
    [alice, `70a08231${addr(alice)}`],
  ];
  for (const [caller, data] of calls) {
    const r = await evm.runCall({
      caller,
      origin: caller,
      to: token,
      data: hexToBytes(`0x${data}`),
      gasLimit: 200_000n,
    });
    out.push([
      r.execResult.exceptionError?.error,
      r.execResult.executionGasUsed,
      r.execResult.gasRefund,
      bytesToHex(r.execResult.returnValue),
      (r.execResult.logs ?? []).map(([a, topics, d]) => [bytesToHex(a), topics.map(bytesToHex), bytesToHex(d)]),
    ]);
  }
  return out;
}

/** ADD, SUB, MUL, DIV, MOD, ADDMOD, MULMOD, SDIV, SMOD over edge words, each result stored in memory and returned. */
function arithmeticProgram(): string {
  const T = 2n ** 256n;
  const words = [0n, 1n, 3n, 2n ** 255n, T - 1n, T - 2n, 2n ** 128n + 7n];
  const ops = ['01', '03', '02', '04', '06', '05', '07'];
  let code = '';
  let at = 0;
  for (const op of ops) {
    for (const a of words) {
      for (const b of words) {
        // PUSH32 b PUSH32 a OP PUSH2 at MSTORE  (a op b)
        code += `${push32(b)}${push32(a)}${op}61${at.toString(16).padStart(4, '0')}52`;
        at += 32;
      }
    }
  }
  for (const op of ['08', '09']) {
    for (const [a, b, n] of [
      [T - 1n, T - 1n, 7n],
      [T - 1n, 2n, T - 1n],
      [5n, 6n, 0n],
      [2n ** 255n, 2n ** 255n, T - 2n],
    ] as [bigint, bigint, bigint][]) {
      code += `${push32(n)}${push32(b)}${push32(a)}${op}61${at.toString(16).padStart(4, '0')}52`;
      at += 32;
    }
  }
  return `0x${code}61${at.toString(16).padStart(4, '0')}6000f3`;
}

describe('engine functions rebound to the fast conversions', () => {
  it('rebinds the hot functions at the pinned @ethereumjs version', async () => {
    await installEngineSpeedups();
    const names = reboundEngine.functions.map((r) => r.name);
    for (const name of [
      'dynamicGasHandlers[0x55]',
      'handlers[0x55]',
      'handlers[0x35]',
      'handlers[0x51]',
      'handlers[0x20]',
      'handlers[0xa0]',
      'handlers[0xa4]',
      'Journal.isWarmedStorage',
      'Interpreter.getCaller',
      'OriginalStorageCache.get',
      'OriginalStorageCache.put',
      'Address.toString',
    ]) {
      expect(names).toContain(name);
    }
    const swapped = (name: string) => reboundEngine.functions.find((r) => r.name === name)?.swapped;
    expect(swapped('dynamicGasHandlers[0x55]')).toEqual(
      expect.arrayContaining(['setLengthLeft', 'bigIntToBytes', 'setLengthLeftStorage']),
    );
    expect(swapped('Journal.isWarmedStorage')).toEqual(['bytesToUnprefixedHex']);
    // Journal.cleanup is fastJournal.ts's (fast hexToBytes, cached accounts without a promise).
    expect(names).not.toContain('Journal.cleanup');
    // So are the methods that record into the journal's per-height diff (fastBytes conversions already).
    for (const name of ['addWarmedStorage', 'addWarmedAddress', 'touchAccount']) {
      expect(names).not.toContain(`Journal.${name}`);
    }
    expect(swapped('handlers[0x35]')).toEqual(expect.arrayContaining(['bytesToBigInt']));
    // Memory-expansion gas (MSTORE, MLOAD, KECCAK256, RETURN) is no longer async.
    for (const op of ['0x52', '0x51', '0x20', '0xf3']) {
      const r = reboundEngine.functions.find((f) => f.name === `dynamicGasHandlers[${op}]`);
      expect(r?.deasync).toBe(true);
      expect(r?.rebound.constructor.name).toBe('Function');
    }
    // The replaced SLOAD (fastSload.ts) is not rebound; CREATE2's gas uses a private helper.
    expect(names).not.toContain('handlers[0x54]');
    expect(reboundEngine.skipped.every((s) => !/not the file|resolves elsewhere|has no/.test(s))).toBe(true);
  });

  it('runs storage, log, calldata and memory opcodes with the same gas, refunds, logs and state on every fork', async () => {
    await installEngineSpeedups();
    for (const hardfork of [
      Hardfork.Constantinople,
      Hardfork.Istanbul,
      Hardfork.London,
      Hardfork.Prague,
      Hardfork.Osaka,
    ]) {
      const rebound = await runPrograms(hardfork);
      const original = await withOriginals(() => runPrograms(hardfork));
      expect(rebound).toEqual(original);
      expect(await runPrograms(hardfork, true)).toEqual(await withOriginals(() => runPrograms(hardfork, true)));
      // The program ran: slot 2 ended at 3, the logs are there; the sentry and static runs failed.
      expect(rebound[0]).toMatchObject({ error: undefined, slots: ['0x', '0x03'] });
      expect((rebound[0] as { logs: unknown[] }).logs).toHaveLength(3);
      expect((rebound[2] as { error?: string }).error).toBeDefined();
      expect((rebound[3] as { error?: string }).error).toBeDefined();
      for (const i of [4, 5, 6]) expect((rebound[i] as { error?: string }).error).toBe('out of gas');
    }
  });

  it('runs 256-bit arithmetic (wrapping ADD, SUB, MUL; DIV, MOD, ADDMOD, MULMOD, signed) to the same words', async () => {
    await installEngineSpeedups();
    expect(reboundEngine.functions.find((r) => r.name === 'handlers[0x1]')?.swapped).toContain('mod');
    const run = async () => {
      const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
      const to = new Address(hexToBytes('0x00000000000000000000000000000000000000ab'));
      await evm.stateManager.putCode(to, hexToBytes(arithmeticProgram() as `0x${string}`));
      const r = await evm.runCall({ to, gasLimit: 10_000_000n });
      return [r.execResult.exceptionError?.error, r.execResult.executionGasUsed, bytesToHex(r.execResult.returnValue)];
    };
    const rebound = await run();
    expect(rebound[0]).toBeUndefined();
    expect(rebound).toEqual(await withOriginals(run));
    // Spot checks against the arithmetic itself: (2^256-1) + 1 wraps to 0, 0 - 1 to 2^256-1.
    const word = (i: number) => (rebound[2] as string).slice(2 + i * 64, 2 + (i + 1) * 64);
    expect(word(4 * 7 + 1)).toBe('0'.repeat(64));
    expect(word(49 + 0 * 7 + 1)).toBe('f'.repeat(64));
  });

  it('runs a compiled ERC-20 (deploy, transfers, a failing transfer, balanceOf) the same', async () => {
    await installEngineSpeedups();
    // The artifact uses MCOPY: Cancun on.
    for (const hardfork of [Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]) {
      const rebound = await runToken(hardfork);
      expect((rebound[0] as unknown[])[0]).toBeUndefined();
      expect(rebound).toEqual(await withOriginals(() => runToken(hardfork)));
      // bob ends with 1000 + 1 - 1001 = 0 (his second transfer reverts)
      expect((rebound[5] as unknown[])[3]).toBe(`0x${word(0n)}`);
      expect((rebound[4] as unknown[])[0]).toBe('revert');
    }
  });
});
