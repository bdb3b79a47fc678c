import {
  AshlarError,
  ErrorCodes,
  type KernelServices,
  type StateOverrides,
  type StoredBlock,
  applyStateOverrides,
  buildUnsignedTx,
  isAshlarError,
} from '@ashlar/core';
import { Address } from '@ethereumjs/util';
import { runTx } from '@ethereumjs/vm';
import type { TransactionRequest } from '../params/index.js';
import { callBlock, callGas, isFeeless, vmAtBlock } from '../shared/callContext.js';
import { timeLimitMs, underTimeLimit } from '../shared/timeLimit.js';
import { type TraceBlockOverrides, overrideBlock } from './blockOverrides.js';
import type { TxTracer } from './tracer.js';

const ZERO = new Address(new Uint8Array(20));

/**
 * Runs a call request on the state of `sb` (with state overrides) in a scratch VM, as eth_call
 * runs it (in the block with geth's `blockOverrides` applied, when given) — sender without signature, nonce and balance unchecked for a fee-less call, gas the
 * request's or the block gas limit under the RPC gas cap — and traces it, under the node's call
 * timeout or the tracer's shorter `timeoutMs` (geth's `execution timeout`).
 */
export async function traceCall<R>(
  services: KernelServices,
  req: TransactionRequest,
  sb: StoredBlock,
  overrides: StateOverrides | undefined,
  tracer: TxTracer<R>,
  timeoutMs?: number,
  blockOverrides?: TraceBlockOverrides,
): Promise<R> {
  const vm = await vmAtBlock(services, sb);
  await applyStateOverrides(vm.stateManager, overrides);
  const from = req.from ?? ZERO;
  const nonce = req.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
  const gas = callGas(services, vm, req, sb);
  const feeless = isFeeless(req);
  const block = overrideBlock(vm, callBlock(vm, sb, gas, feeless), blockOverrides, feeless);
  const tx = buildUnsignedTx(services.chain, req, from, gas, nonce);
  const ctx = { tx, block, firstLogIndex: 0 };
  try {
    await tracer.begin(vm, ctx);
    const r = await underTimeLimit(vm, timeLimitMs(services, timeoutMs), () =>
      runTx(vm, {
        tx,
        block,
        skipNonce: true,
        skipBalance: feeless,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      }),
    );
    return await tracer.end(vm, r, ctx);
  } catch (e) {
    if (isAshlarError(e)) throw e;
    // @ethereumjs appends its state (` (vm hf=… -> block … -> tx …`): not for clients.
    const msg = e instanceof Error ? e.message.split(' -> ')[0].split(' (vm hf=')[0].split('\n')[0] : String(e);
    throw new AshlarError(ErrorCodes.EXECUTION, msg);
  } finally {
    tracer.dispose(vm);
  }
}
