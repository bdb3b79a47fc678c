import { Address } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import type { Executor } from '../exec/Executor.js';
import type { CallRequest } from '../exec/types.js';

/** Calls the warm-up makes: V8 gives a function feedback (what the JIT compiles from) after ~8 runs. */
const CALLS = 16;
/** An address no chain gives code (checked: with code, no warm-up runs). */
const NOBODY = new Address(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x5b, 0x1e]));
/** Whether a kernel of this process has warmed the call path (feedback is the process's, not a kernel's). */
let warmed = false;

/**
 * Runs a few eth_calls (ERC-20 balanceOf-sized calldata, no sender: the common read) on the head
 * before anything else runs, once per process, so that runTx and the code it shares with mining
 * know the call path's objects before V8 optimises them.
 *
 * Why: calls and mined transactions share runTx, the EVM and the transaction's methods. A fresh
 * node mines first (a suite's setup, the peers' harness), so V8 optimised that code for the
 * miner's objects only; the first eth_call then brought others (runTx's options, the sender
 * method, a sender without an account, the VM's listeners) and the optimised code was thrown
 * away and compiled again (~100-300 ms of compiling, the first calls running slow meanwhile).
 * Seen here first, both kinds are in the code compiled once. Nothing is written (each call
 * reverts) and no event is sent; the calls leave answers in the call cache for a block that
 * would answer them the same. Forked chains are skipped (state reads go upstream), as are chains
 * where the address has code and chains before Byzantium (see below).
 */
export async function warmCallPath(executor: Executor, chain: ChainService): Promise<void> {
  // Before Byzantium calls run on a scratch VM, not the head's (Executor.headVm): nothing to warm.
  if (warmed || chain.fork !== undefined || !chain.common.gteHardfork('byzantium')) return;
  const code = await chain.exclusive(() => chain.vm.stateManager.getCode(NOBODY));
  if (code.length > 0) return;
  warmed = true;
  const data = new Uint8Array(36);
  data.set([0x70, 0xa0, 0x82, 0x31]);
  for (let i = 0; i < CALLS; i++) {
    data[35] = i;
    // Built as the RPC layer builds a request (keys added in its order), so its shape is the same.
    const req: CallRequest = {};
    req.to = NOBODY;
    req.data = data.slice();
    await executor.call(req, chain.head);
  }
}
