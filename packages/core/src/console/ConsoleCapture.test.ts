import type { VM } from '@ethereumjs/vm';
import {
  Address,
  bigIntToBytes,
  concatBytes,
  createAddressFromString,
  setLengthLeft,
  utf8ToBytes,
} from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { EventEmitter } from 'eventemitter3';
import { describe, expect, it } from 'vitest';
import { TxConsoleCapture, primeTxConsoleCapture } from './ConsoleCapture.js';
import { CONSOLE_ADDRESS } from './decodeConsole.js';

/** A VM as TxConsoleCapture sees it: its events and its EVM's. */
function fakeVm() {
  const vm = { events: new EventEmitter(), evm: { events: new EventEmitter() } };
  return { vm, asVm: vm as unknown as VM };
}

const caller = new Address(new Uint8Array(20).fill(0xab));
const consoleTo = createAddressFromString(CONSOLE_ADDRESS);

/** The message of console.log(uint256 n) from `caller`. */
function logUint(n: bigint) {
  const selector = keccak_256(utf8ToBytes('log(uint256)')).subarray(0, 4);
  return { to: consoleTo, caller, data: concatBytes(selector, setLengthLeft(bigIntToBytes(n), 32)) };
}

describe('TxConsoleCapture', () => {
  it('keys lines by transaction, ignores messages outside transactions, and stops at detach', () => {
    const { vm, asVm } = fakeVm();
    const tx1 = {} as never;
    const tx2 = {} as never;
    const c = new TxConsoleCapture(asVm);
    c.attach();
    vm.evm.events.emit('beforeMessage', logUint(1n)); // a system call before the first transaction
    vm.events.emit('beforeTx', tx1);
    vm.evm.events.emit('beforeMessage', logUint(2n));
    vm.evm.events.emit('beforeMessage', { to: caller, caller, data: new Uint8Array(0) });
    vm.events.emit('afterTx', {});
    vm.events.emit('beforeTx', tx2);
    vm.events.emit('afterTx', {});
    c.detach();
    vm.events.emit('beforeTx', tx2);
    vm.evm.events.emit('beforeMessage', logUint(3n));
    vm.events.emit('afterTx', {});
    expect([...c.byTx.keys()]).toEqual([tx1]);
    expect(c.byTx.get(tx1)?.map((l) => l.message)).toEqual(['2']);
    expect(c.byTx.get(tx1)?.[0].address).toBe(caller.toString());
  });

  it('adds its listeners to a VM once, block after block, and feeds only the attached capture', () => {
    const { vm, asVm } = fakeVm();
    const tx = {} as never;
    const captures: TxConsoleCapture[] = [];
    for (let block = 0; block < 5; block++) {
      const c = new TxConsoleCapture(asVm);
      c.attach();
      vm.events.emit('beforeTx', tx);
      vm.evm.events.emit('beforeMessage', logUint(BigInt(block)));
      vm.events.emit('afterTx', {});
      c.detach();
      captures.push(c);
      expect(vm.events.listenerCount('beforeTx')).toBe(1);
      expect(vm.events.listenerCount('afterTx')).toBe(1);
      expect(vm.evm.events.listenerCount('beforeMessage')).toBe(1);
    }
    expect(captures.map((c) => c.byTx.get(tx)?.map((l) => l.message))).toEqual([['0'], ['1'], ['2'], ['3'], ['4']]);
  });

  it('follows the VM to a new EVM', () => {
    const { vm, asVm } = fakeVm();
    const tx = {} as never;
    new TxConsoleCapture(asVm).attach();
    const old = vm.evm;
    vm.evm = { events: new EventEmitter() };
    const c = new TxConsoleCapture(asVm);
    c.attach();
    expect(old.events.listenerCount('beforeMessage')).toBe(0);
    vm.events.emit('beforeTx', tx);
    vm.evm.events.emit('beforeMessage', logUint(7n));
    vm.events.emit('afterTx', {});
    expect(c.byTx.get(tx)?.map((l) => l.message)).toEqual(['7']);
  });

  it('forBlock: a block that cannot print gets the idle capture, which adds no listener and collects nothing', () => {
    const { vm, asVm } = fakeVm();
    const tx = {} as never;
    const idle = TxConsoleCapture.forBlock(asVm, false);
    expect(vm.events.listenerCount('beforeTx')).toBe(0);
    expect(vm.evm.events.listenerCount('beforeMessage')).toBe(0);
    const c = TxConsoleCapture.forBlock(asVm, true);
    vm.events.emit('beforeTx', tx);
    vm.evm.events.emit('beforeMessage', logUint(5n));
    vm.events.emit('afterTx', {});
    c.detach();
    idle.detach();
    expect(idle.byTx.size).toBe(0);
    expect(TxConsoleCapture.forBlock(asVm, false)).toBe(idle);
    expect(c.byTx.get(tx)?.map((l) => l.message)).toEqual(['5']);
  });

  it('primeTxConsoleCapture leaves the VM without listeners, and a later capture still works', () => {
    const { vm, asVm } = fakeVm();
    const tx = {} as never;
    primeTxConsoleCapture(asVm);
    expect(vm.events.eventNames()).toEqual([]);
    expect(vm.evm.events.eventNames()).toEqual([]);
    const c = TxConsoleCapture.forBlock(asVm, true);
    vm.events.emit('beforeTx', tx);
    vm.evm.events.emit('beforeMessage', logUint(9n));
    vm.events.emit('afterTx', {});
    c.detach();
    expect(c.byTx.get(tx)?.map((l) => l.message)).toEqual(['9']);
  });

  it('primeTxConsoleCapture does nothing to a VM that already has transaction or message listeners', () => {
    const { vm, asVm } = fakeVm();
    const other = () => undefined;
    vm.evm.events.on('beforeMessage', other);
    primeTxConsoleCapture(asVm);
    expect(vm.events.eventNames()).toEqual([]);
    expect(vm.evm.events.listeners('beforeMessage')).toEqual([other]);
  });
});
