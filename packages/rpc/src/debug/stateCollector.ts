import type { InterpreterStep } from '@ethereumjs/evm';
import {
  type Address,
  bigIntToBytes,
  bytesToHex,
  createAddressFromBigInt,
  createAddressFromString,
  generateAddress,
  generateAddress2,
  hexToBytes,
  setLengthLeft,
  setLengthRight,
} from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { TxContext } from './tracer.js';

/** An account as read from state: what the prestate tracer and Parity's stateDiff compare. */
export interface AccountState {
  exists: boolean;
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  /** Slots read or written, 32-byte hex keys to 32-byte hex values. */
  storage: Map<string, string>;
}

/** The opcodes whose operands name an account or slot to record. */
const TOUCHING = new Set([
  'SLOAD',
  'SSTORE',
  'BALANCE',
  'EXTCODESIZE',
  'EXTCODECOPY',
  'EXTCODEHASH',
  'SELFDESTRUCT',
  'CALL',
  'CALLCODE',
  'DELEGATECALL',
  'STATICCALL',
  'CREATE',
  'CREATE2',
]);
const ZERO_WORD = `0x${'00'.repeat(32)}`;
const word = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32);

/**
 * Records the accounts and storage slots a transaction touches, each read from state on its
 * first touch — before the opcode that touches it runs, so before this transaction changed it —
 * as geth's prestateTracer does: sender, recipient (or created address) and coinbase up front;
 * then BALANCE/EXTCODE*'s and SELFDESTRUCT's operand, the CALL family's callee, CREATE/CREATE2's
 * new address and SLOAD/SSTORE's slot from the EVM's `step` events. `post()` reads the same
 * accounts and slots again after the transaction.
 */
export class StateCollector {
  readonly pre = new Map<string, AccountState>();
  /** Contracts the transaction created (geth drops them from `pre` when they did not exist). */
  readonly created = new Set<string>();
  /** Accounts that ran SELFDESTRUCT. */
  readonly destructed = new Set<string>();
  private vm?: VM;

  async begin(vm: VM, ctx: TxContext): Promise<void> {
    this.vm = vm;
    const { tx, block } = ctx;
    const from = tx.getSenderAddress();
    await this.account(from);
    if (tx.to) await this.account(tx.to);
    else {
      const created = createAddressFromString(bytesToHex(generateAddress(from.bytes, bigIntToBytes(tx.nonce))));
      this.created.add(created.toString());
      await this.account(created);
    }
    await this.account(block.header.coinbase);
    vm.evm.events?.on('step', this.onStep);
  }

  /** Throws what a step's reads failed with, if anything. */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  dispose(vm: VM): void {
    vm.evm.events?.off('step', this.onStep);
  }

  private async read(vm: VM, address: Address): Promise<AccountState> {
    const acct = await vm.stateManager.getAccount(address);
    return {
      exists: acct !== undefined,
      balance: acct?.balance ?? 0n,
      nonce: acct?.nonce ?? 0n,
      code: acct ? await vm.stateManager.getCode(address) : new Uint8Array(0),
      storage: new Map(),
    };
  }

  private async account(address: Address): Promise<AccountState | undefined> {
    const vm = this.vm;
    if (!vm) return undefined;
    const key = address.toString();
    let a = this.pre.get(key);
    if (!a) {
      a = await this.read(vm, address);
      this.pre.set(key, a);
    }
    return a;
  }

  private async slot(address: Address, slot: bigint): Promise<void> {
    const a = await this.account(address);
    const vm = this.vm;
    if (!a || !vm) return;
    const key = bytesToHex(word(slot));
    if (a.storage.has(key)) return;
    const v = await vm.stateManager.getStorage(address, word(slot));
    a.storage.set(key, bytesToHex(setLengthLeft(v, 32)));
  }

  /** Reads failed inside a step (rethrown by `post`/`end`: a trace must not be silently partial). */
  private failure?: unknown;

  /**
   * Two arguments on purpose: the EVM awaits a `step` listener only when it takes `resolve`, and
   * the reads must finish before the opcode runs (they are the state before it).
   */
  private readonly onStep = (step: InterpreterStep, resolve?: () => void): void => {
    if (!TOUCHING.has(step.opcode.name)) {
      resolve?.();
      return;
    }
    this.touch(step).then(
      () => resolve?.(),
      (e: unknown) => {
        this.failure ??= e;
        resolve?.();
      },
    );
  };

  private async touch(step: InterpreterStep): Promise<void> {
    const stack = step.stack;
    const n = stack.length;
    const top = stack[n - 1];
    switch (step.opcode.name) {
      case 'SLOAD':
      case 'SSTORE':
        if (n >= 1) await this.slot(step.address, top);
        return;
      case 'BALANCE':
      case 'EXTCODESIZE':
      case 'EXTCODECOPY':
      case 'EXTCODEHASH':
        if (n >= 1) await this.account(addressOf(top));
        return;
      case 'SELFDESTRUCT':
        if (n >= 1) await this.account(addressOf(top));
        this.destructed.add(step.address.toString());
        return;
      case 'CALL':
      case 'CALLCODE':
      case 'DELEGATECALL':
      case 'STATICCALL':
        if (n >= 2) await this.account(addressOf(stack[n - 2]));
        return;
      case 'CREATE': {
        const acct = await step.stateManager.getAccount(step.address);
        const addr = generateAddress(step.address.bytes, bigIntToBytes(acct?.nonce ?? 0n));
        await this.createdAt(addr);
        return;
      }
      case 'CREATE2': {
        if (n < 4) return;
        const [offset, size, salt] = [stack[n - 2], stack[n - 3], stack[n - 4]];
        const init = step.memory.subarray(Number(offset), Number(offset + size));
        const padded = init.length === Number(size) ? init : setLengthRight(init, Number(size));
        await this.createdAt(generateAddress2(step.address.bytes, word(salt), keccak_256(padded)));
        return;
      }
    }
  }

  private async createdAt(bytes: Uint8Array): Promise<void> {
    const address = createAddressFromString(bytesToHex(bytes));
    this.created.add(address.toString());
    await this.account(address);
  }

  /** The touched accounts as they are now (after the transaction). */
  async post(vm: VM): Promise<Map<string, AccountState>> {
    this.check();
    const out = new Map<string, AccountState>();
    for (const [key, pre] of this.pre) {
      const address = createAddressFromString(key);
      const now = await this.read(vm, address);
      for (const slot of pre.storage.keys()) {
        const v = now.exists
          ? await vm.stateManager.getStorage(address, hexToBytes(slot as `0x${string}`))
          : new Uint8Array(0);
        now.storage.set(slot, bytesToHex(setLengthLeft(v, 32)));
      }
      out.set(key, now);
    }
    return out;
  }
}

export const isZeroWord = (v: string): boolean => v === ZERO_WORD;

function addressOf(v: bigint): Address {
  return createAddressFromBigInt(v & ((1n << 160n) - 1n));
}
