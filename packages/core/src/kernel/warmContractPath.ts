import type { EVM } from '@ethereumjs/evm';
import { Address, hexToBytes } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import type { Executor } from '../exec/Executor.js';
import type { CallRequest, StateOverrides } from '../exec/types.js';
import { keepPrimed } from '../index/keepPrimed.js';

/** Bytecode from hex parts. */
function code(parts: string[]): Uint8Array {
  return hexToBytes(`0x${parts.join('')}`);
}

/** Runs of each kind: V8 gives a function feedback (what the JIT compiles from) after ~8 runs. */
const RUNS = 16;
/** An address given code by a state override (or inside a reverted checkpoint) for the warm-up only. */
export const SCRATCH = new Address(
  Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x5b, 0x1f]),
);
/** A caller no chain gives an account (checked: with one, the probe-like runs are skipped). */
export const NO_ACCOUNT = new Address(
  Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x5b, 0x20]),
);

/**
 * What a token's transfer runs, in small: SSTORE(0, 42), SLOAD(0) into memory, a JUMPI loop
 * (3 rounds), a JUMP, LOG1 of the word, then RETURN of it. Its first 35 bytes (up to LOG1) are
 * also the creation code's first part below.
 */
export const WRITING_CODE = code([
  '602a600055', // SSTORE(0, 42)
  '600054600052', // MSTORE(0, SLOAD(0))
  '60035b6001900380600d5750', // 3 rounds of JUMPI to 0x0d
  '601b56fe5b', // JUMP to 0x1b
  '600160206000a1', // LOG1(0, 32, topic 1)
  '60206000f3', // RETURN(0, 32)
]);

/** What a token's getter runs (a static call may not write): SLOAD, the loop and the JUMP, RETURN. */
export const VIEW_CODE = code([
  '600054600052', // MSTORE(0, SLOAD(0))
  '60035b600190038060085750', // 3 rounds of JUMPI to 0x08
  '601656fe5b', // JUMP to 0x16
  '60206000f3', // RETURN(0, 32)
]);

/** What a probe of a function the contract lacks runs: SLOAD, then REVERT(0, 0) (Solidity's fallback-less dispatch). */
export const REVERTING_CODE = code([
  '600054600052', // MSTORE(0, SLOAD(0))
  '60006000fd', // REVERT(0, 0)
]);

/** WRITING_CODE up to its LOG1 (same jump targets), then deploys VIEW_CODE (CODECOPY, RETURN). */
export const CREATION_CODE = (() => {
  const head = WRITING_CODE.subarray(0, 35);
  const n = VIEW_CODE.length;
  const deploy = [0x60, n, 0x60, 0, 0x60, 0x00, 0x39, 0x60, n, 0x60, 0x00, 0xf3];
  deploy[3] = head.length + deploy.length; // where VIEW_CODE starts
  return Uint8Array.from([...head, ...deploy, ...VIEW_CODE]);
})();

/** Whether a kernel of this process has warmed the contract path (feedback is the process's). */
let warmed = false;

/**
 * Runs contract code a few times at kernel start, once per process, nothing written and no event
 * sent: eth_calls that create a contract and that call code given by a state override (the head's
 * EVM, its call time limit armed), and static calls from a caller without an account on a VM of
 * their own, as the explorer index probes a new token (index/StateReader.ts).
 *
 * Why: a fresh node that mined value transfers first (the peers' harness) had runCall,
 * _executeCall and the time limit's opcode wrapper optimised on paths that never met code, and
 * its first contract threw each away to compile it again (--trace-deopt-verbose, W4 after W1,W2:
 * runCall at its creation branch, _executeCall at the `new Account()` of a caller without one,
 * the wrapper at its armed branch, all 'Insufficient type feedback'). Priming a single site only
 * moved the deopt to the next site that contracts alone reach, so these runs go through the whole
 * contract path (creation, code deposit, the interpreter, SSTORE/SLOAD/LOG, JUMP/JUMPI, a revert,
 * the wrapper's armed branch; its disarmed one runs for every mined contract call anyway).
 * Forked chains and chains before Byzantium are skipped (as warmCallPath).
 */
export async function warmContractPath(executor: Executor, chain: ChainService): Promise<void> {
  if (warmed || chain.fork !== undefined || !chain.common.gteHardfork('byzantium')) return;
  warmed = true;
  const overrides: StateOverrides = new Map([[SCRATCH.toString(), { code: WRITING_CODE }]]);
  for (let i = 0; i < RUNS; i++) {
    // Built as the RPC layer builds requests (keys added in its order), so their shapes are the same.
    // A byte after the creation code (never run) keeps each call out of the call cache.
    const create: CallRequest = {};
    create.data = Uint8Array.from([...CREATION_CODE, i]);
    await executor.call(create, chain.head).catch(() => undefined);
    const call: CallRequest = {};
    call.to = SCRATCH;
    call.data = Uint8Array.of(i);
    await executor.call(call, chain.head, overrides).catch(() => undefined);
  }
  await probeLikeCalls(chain);
}

/** StateReader.call's runs, on a VM of their own at the head's state, the code put inside a reverted checkpoint. */
async function probeLikeCalls(chain: ChainService): Promise<void> {
  const vm = await chain.exclusive(async () => {
    const sm = chain.newStateManager();
    await sm.setStateRoot(chain.headStateRoot);
    return chain.createVmOn(sm);
  });
  if ((await vm.stateManager.getAccount(NO_ACCOUNT)) !== undefined) return;
  const evm = vm.evm as EVM;
  const block = chain.head.block;
  for (let i = 0; i < RUNS; i++) {
    await evm.journal.checkpoint();
    try {
      // Half of them revert: a token probe asks for functions a contract may lack.
      await vm.stateManager.putCode(SCRATCH, i % 2 === 0 ? VIEW_CODE : REVERTING_CODE);
      const res = await evm.runCall({
        to: SCRATCH,
        caller: NO_ACCOUNT,
        data: Uint8Array.of(i),
        gasLimit: 2_000_000n,
        block,
        isStatic: true,
        skipNonceIncrement: true,
      });
      // A result of each kind kept (a return, a revert's EVMError): V8 holds the maps these
      // objects took weakly (see keepPrimed). Once the last EVMError was collected, runCall's
      // feedback at `err.error` was cleared with its map, and the node's first revert (the
      // index's probe of a new token) still threw runCall's optimised code away.
      if (i < 2) keepPrimed(res);
    } finally {
      await evm.journal.revert();
    }
  }
}
