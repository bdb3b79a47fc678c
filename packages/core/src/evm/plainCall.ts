import { type EVM, Message } from '@ethereumjs/evm';
import type { Block } from '@ethereumjs/block';
import { Account, type Address, MAX_INTEGER } from '@ethereumjs/util';
import { SETTLED } from '../util/settled.js';
import { cachedAccount } from './cachedAccount.js';
import { earlyFrameResult } from './frameResult.js';

/** What `runPlainCall` reads and writes of the EVM beyond its public methods (@ethereumjs/evm 10.1.3). */
interface PlainEvm {
  journal: {
    checkpoint(): Promise<void>;
    commit(): Promise<void>;
    putAccount(address: Address, account: Account | undefined): Promise<void>;
  };
  transientStorage: { checkpoint(): void; commit(): void };
  stateManager: { getAccount(address: Address): Promise<Account | undefined> };
  _block: Block;
  _tx: { gasPrice: bigint; origin: Address };
  _optsCached: { profiler?: { enabled?: boolean } };
  DEBUG: boolean;
  getPrecompile(address: Address): unknown;
  _emit(topic: string, data: unknown): Promise<void>;
}

/** What runPlainCall reads of the options leanRunTx hands `runCall` (the same object). */
export interface PlainCallInput {
  block: Block;
  gasPrice: bigint;
  caller: Address;
  gasLimit: bigint;
  /** Undefined for a creation, which this never runs. */
  to: Address | undefined;
  value: bigint;
  data: Uint8Array;
}

const NO_CODE = new Uint8Array(0);

/**
 * `evm.runCall` of a transaction's top-level call to an account without code (a value transfer),
 * in the steps @ethereumjs/evm 10.1.3 takes for it and nothing else: the same message and
 * `beforeMessage` event, the checkpoint, the sender's and the recipient's balance, the early
 * result of `_executeCall` (no code: no interpreter), the commit and the `afterMessage` event, so
 * the state, the journal and every listener (the call-frame tracer) see what they saw from
 * runCall. It skips runCall's and _executeCall's checks for the EIPs the lean path never runs under
 * (leanRunTx's FOREIGN_EIPS: Verkle, EIP-2780, 7708, 7928, 8037...), which were a fresh node's
 * most compiled code per transfer after runTx itself.
 *
 * Answers undefined, having changed nothing, when the call is not such a transfer or would take a
 * branch of runCall this does not mirror: the recipient has code (a contract, or an EIP-7702
 * delegation), is a precompile or none (a creation), the transfer would fail (balance short, recipient overflow),
 * the transaction has input, or the EVM's profiler or debug log is on. The caller then runs runCall.
 */
export async function runPlainCall(evm: EVM, input: PlainCallInput, transientStorage: boolean): Promise<unknown> {
  const e = evm as unknown as PlainEvm;
  const { caller, to, value } = input;
  if (to === undefined || input.data.length > 0 || e.DEBUG || e._optsCached.profiler?.enabled === true)
    return undefined;
  if (e.getPrecompile(to) !== undefined) return undefined;
  const state = e.stateManager;
  // Each read as getAccount answers it (undefined: none), without its promise when cached.
  const cachedTo = cachedAccount(state, to);
  const recipient = cachedTo !== undefined ? (cachedTo ?? undefined) : await state.getAccount(to);
  if (recipient?.isContract()) return undefined;
  const cachedCaller = cachedAccount(state, caller);
  const sender = cachedCaller !== undefined ? (cachedCaller ?? undefined) : await state.getAccount(caller);
  if ((sender?.balance ?? 0n) < value || (recipient?.balance ?? 0n) + value > MAX_INTEGER) return undefined;

  // runCall, no message given, skipBalance and nonce increment off (leanRunTx did both).
  e._block = input.block;
  e._tx = { gasPrice: input.gasPrice, origin: caller };
  const message = new Message({
    caller,
    gasLimit: input.gasLimit,
    to,
    value,
    data: input.data,
    code: undefined,
    depth: undefined,
    isCompiled: undefined,
    isStatic: undefined,
    salt: undefined,
    selfdestruct: new Map(),
    createdAddresses: new Set(),
    delegatecall: undefined,
    blobVersionedHashes: undefined,
  });
  // Events and journal steps awaited only when they did not answer SETTLED (leanEmit, the state manager).
  let step = e._emit('beforeMessage', message);
  if (step !== SETTLED) await step;
  step = e.journal.checkpoint();
  if (step !== SETTLED) await step;
  if (transientStorage) e.transientStorage.checkpoint();
  // _executeCall: the sender's balance, then the recipient's (read again, as it reads them: the
  // state manager hands out its own copies), then the code, which is empty.
  const cachedFrom = cachedAccount(state, caller);
  const from = (cachedFrom !== undefined ? cachedFrom : await state.getAccount(caller)) ?? new Account();
  from.balance -= value;
  step = e.journal.putAccount(caller, from);
  if (step !== SETTLED) await step;
  const cachedRecipient = cachedAccount(state, to);
  const toAccount = (cachedRecipient !== undefined ? cachedRecipient : await state.getAccount(to)) ?? new Account();
  toAccount.balance += value;
  step = e.journal.putAccount(to, toAccount);
  if (step !== SETTLED) await step;
  message.code = NO_CODE;
  message.isCompiled = false;
  const result = {
    createdAddress: undefined,
    execResult: earlyFrameResult(message.gasRefund, 0n, undefined, undefined),
  };
  step = e.journal.commit();
  if (step !== SETTLED) await step;
  if (transientStorage) e.transientStorage.commit();
  step = e._emit('afterMessage', result);
  if (step !== SETTLED) await step;
  return result;
}
