import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { EVM, Message, createEVM } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, createZeroAddress, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { installEngineSpeedups } from './internals.js';
import { callFrameMessage, originalExecuteCall } from './leanExecuteCall.js';

const spread = (message: Record<string, unknown> & { codeAddress: unknown }, gasLimit: bigint) => ({
  ...{ codeAddress: message.codeAddress },
  ...message,
  gasLimit,
});

/** Every key of a frame's execResult (@ethereumjs's interpreter result's and early result's). */
const FRAME_KEYS = [
  'logs',
  'returnValue',
  'selfdestruct',
  'createdAddresses',
  'exceptionError',
  'gas',
  'executionGasUsed',
  'gasRefund',
  'stateGasSpilled',
];

/** A value as compared across the two methods: collections by their entries, bytes as hex. */
const shown = (v: unknown): unknown =>
  v instanceof Map || v instanceof Set
    ? [v.constructor.name, [...v.entries()].map(String)]
    : v instanceof Uint8Array
      ? bytesToHex(v)
      : typeof v === 'object' && v !== null
        ? String((v as { error?: unknown }).error ?? v)
        : v;

/** Keys in order with their values (identity for objects), to compare two built messages exactly. */
const entries = (o: object) => Object.entries(o);

describe('_executeCall without the slow spread', () => {
  it('builds the same message as the spread: keys, order and values, for every shape', () => {
    const a = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
    const b = new Address(hexToBytes('0x00000000000000000000000000000000000000bb'));
    const plain = new Message({ to: a, caller: b, gasLimit: 5n, data: Uint8Array.of(1), value: 3n });
    const loaded = new Message({ to: a, codeAddress: b, gasLimit: 5n, depth: 2, isStatic: true });
    (loaded as unknown as { chargeCodeAccesses: boolean }).chargeCodeAccesses = true;
    const other = new Message({ to: a, gasLimit: 5n });
    (other as unknown as { extra: number }).extra = 1;
    const literal = { to: a, gasLimit: 1n, codeAddress: b, data: Uint8Array.of(2) };
    for (const m of [plain, loaded, other, literal]) {
      const msg = m as unknown as Record<string, unknown> & { codeAddress: unknown };
      expect(entries(callFrameMessage(msg, 77n))).toEqual(entries(spread(msg, 77n)));
      const built = callFrameMessage(msg, 77n);
      for (const [k, v] of entries(spread(msg, 77n))) expect(built[k]).toBe(v);
    }
  });

  it('runs calls with the same results as the original: value, code, precompile, revert, nested CALL', async () => {
    await installEngineSpeedups();
    expect(originalExecuteCall).toBeDefined();
    expect((EVM.prototype as unknown as { _executeCall: unknown })._executeCall).not.toBe(originalExecuteCall);
    for (const hardfork of [Hardfork.London, Hardfork.Prague, Hardfork.Osaka]) {
      const runAll = async (evm: EVM) => {
        const sm = evm.stateManager;
        const caller = new Address(hexToBytes('0x00000000000000000000000000000000000000ca'));
        const store = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
        const reverts = new Address(hexToBytes('0x00000000000000000000000000000000000000bb'));
        const outer = new Address(hexToBytes('0x00000000000000000000000000000000000000cc'));
        // SSTORE 7 at 1, LOG1, RETURN 0x2a
        await sm.putCode(store, hexToBytes('0x6007600155600160006000a1602a60005260206000f3'));
        await sm.putCode(reverts, hexToBytes('0x60006000fd'));
        // CALL store (gas 50000, value 0), then CALL reverts, return both success flags
        //   PUSH1 0 x4, PUSH1 0xaa, PUSH2 0xc350, CALL, PUSH1 0 MSTORE,
        //   PUSH1 0 x4, PUSH1 0xbb, PUSH2 0xc350, CALL, PUSH1 32 MSTORE, PUSH1 64 PUSH1 0 RETURN
        await sm.putCode(
          outer,
          hexToBytes('0x6000600060006000600060aa61c350f16000526000600060006000600060bb61c350f160205260406000f3'),
        );
        const out: unknown[] = [];
        const calls = [
          { to: store, gasLimit: 100_000n },
          { to: reverts, gasLimit: 100_000n },
          { to: outer, gasLimit: 200_000n },
          {
            to: new Address(hexToBytes('0x0000000000000000000000000000000000000002')),
            gasLimit: 100_000n,
            data: Uint8Array.of(1, 2, 3),
          },
          {
            to: new Address(hexToBytes('0x00000000000000000000000000000000000000dd')),
            gasLimit: 100_000n,
            value: 5n,
            caller,
          },
          { to: outer, gasLimit: 30_000n },
          // more value than the caller holds: the transfer fails, the frame exits early
          { to: store, gasLimit: 100_000n, value: 50n, caller },
        ];
        await sm.putAccount(caller, new Account(0n, 10n));
        for (const c of calls) {
          const r = await evm.runCall({ caller: createZeroAddress(), ...c });
          out.push([
            r.execResult.exceptionError?.error,
            r.execResult.executionGasUsed,
            r.execResult.gasRefund,
            bytesToHex(r.execResult.returnValue),
            (r.execResult.logs ?? []).map((l) => l.map((x) => (x instanceof Uint8Array ? bytesToHex(x) : String(x)))),
            // Every key either result has reads the same (a FrameResult holds undefined for a missing one).
            FRAME_KEYS.map((k) => shown((r.execResult as unknown as Record<string, unknown>)[k])),
          ]);
        }
        out.push(bytesToHex(await sm.getStateRoot()));
        return out;
      };
      const fresh = async () =>
        createEVM({ common: new Common({ chain: Mainnet, hardfork }), stateManager: new MerkleStateManager() });
      const lean = await runAll(await fresh());
      const stock = await fresh();
      (stock as unknown as { _executeCall: unknown })._executeCall = originalExecuteCall;
      expect(lean).toEqual(await runAll(stock));
    }
  });

  it('gives a value transfer and a call that runs code results with the same keys in the same order', async () => {
    await installEngineSpeedups();
    const evm = await createEVM({
      common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }),
      stateManager: new MerkleStateManager(),
    });
    const code = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
    await evm.stateManager.putCode(code, hexToBytes('0x602a60005260206000f3'));
    const plain = new Address(hexToBytes('0x00000000000000000000000000000000000000dd'));
    const ran = await evm.runCall({ to: code, gasLimit: 100_000n });
    const transfer = await evm.runCall({ to: plain, gasLimit: 100_000n });
    expect(Object.keys(ran.execResult)).toEqual(FRAME_KEYS);
    expect(Object.keys(transfer.execResult)).toEqual(FRAME_KEYS);
    // The merged run state is read on demand; a frame that ran no code has none.
    expect((ran.execResult.runState as unknown as { gasLeft: bigint }).gasLeft).toBe(
      100_000n - ran.execResult.executionGasUsed,
    );
    expect(transfer.execResult.runState).toBeUndefined();
  });
});
