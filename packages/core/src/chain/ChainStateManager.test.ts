import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { ChainStateManager } from './ChainStateManager.js';

const address = (i: number) => new Address(setLengthLeft(bigIntToBytes(BigInt(i + 1)), 20));
const slot = (i: number) => setLengthLeft(bigIntToBytes(BigInt(i)), 32);

describe('ChainStateManager caches', () => {
  it('are emptied past their bounds after a flush, and every value is read back from the trie', async () => {
    const sm = new ChainStateManager({ caches: new Caches() });
    sm.cacheBounds = { accounts: 3, slotPuts: 5 };
    const caches = (sm as unknown as { _caches: Caches })._caches;
    for (let i = 0; i < 10; i++) {
      await sm.checkpoint();
      await sm.putAccount(address(i), new Account(BigInt(i), BigInt(1000 + i)));
      await sm.putStorage(address(i), slot(i), Uint8Array.of(i + 1));
      await sm.commit();
      await sm.flush();
    }
    // The last flush emptied them (10 accounts > 3): nothing cached, nothing lost.
    expect(caches.account?.size()).toBeLessThanOrEqual(3);
    for (let i = 0; i < 10; i++) {
      expect((await sm.getAccount(address(i)))?.balance).toBe(BigInt(1000 + i));
      expect(await sm.getStorage(address(i), slot(i))).toEqual(Uint8Array.of(i + 1));
    }
  });

  it('are left alone inside a checkpoint, where they hold what the trie does not yet', async () => {
    const sm = new ChainStateManager({ caches: new Caches() });
    sm.cacheBounds = { accounts: 0, slotPuts: 0 };
    await sm.checkpoint();
    await sm.putAccount(address(1), new Account(0n, 5n));
    await sm.flush();
    await sm.revert();
    expect(await sm.getAccount(address(1))).toBeUndefined();
    await sm.checkpoint();
    await sm.putAccount(address(2), new Account(0n, 7n));
    await sm.commit();
    await sm.flush();
    expect((await sm.getAccount(address(2)))?.balance).toBe(7n);
  });

  it('finds storage tries by the hashed address it keeps: the same slots and roots as stock, across reverts', async () => {
    const sm = new ChainStateManager({ caches: new Caches() });
    const stock = new MerkleStateManager({ caches: new Caches() });
    for (const m of [sm, stock] as MerkleStateManager[]) {
      for (let i = 0; i < 3; i++) {
        await m.checkpoint();
        await m.putAccount(address(i), new Account(0n, 1n));
        for (let j = 0; j < 4; j++) await m.putStorage(address(i), slot(j), Uint8Array.of(i * 16 + j + 1));
        await m.commit();
        await m.flush();
      }
      // An eth_call-like read inside a reverted checkpoint, then again.
      for (let round = 0; round < 2; round++) {
        await m.checkpoint();
        await m.putStorage(address(1), slot(2), Uint8Array.of(0xee));
        await m.revert();
      }
    }
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 5; j++) {
        expect(bytesToHex(await sm.getStorage(address(i), slot(j)))).toBe(
          bytesToHex(await stock.getStorage(address(i), slot(j))),
        );
      }
    }
    expect(bytesToHex(await sm.getStateRoot())).toBe(bytesToHex(await stock.getStateRoot()));
  });

  it('answers storage from the trie of the state root it was set back to, not a trie it found before', async () => {
    const sm = new ChainStateManager({ caches: new Caches() });
    await sm.putAccount(address(0), new Account(0n, 1n));
    await sm.putStorage(address(0), slot(1), Uint8Array.of(0xaa));
    await sm.flush();
    const before = await sm.getStateRoot();
    await sm.putStorage(address(0), slot(1), Uint8Array.of(0xbb));
    await sm.putStorage(address(0), slot(2), Uint8Array.of(0xcc));
    await sm.flush();
    const after = await sm.getStateRoot();
    expect(bytesToHex(await sm.getStorage(address(0), slot(1)))).toBe('0xbb');
    // setStateRoot empties the caches and the stock trie map: the storage trie comes back from the old account's root.
    await sm.setStateRoot(before);
    expect(bytesToHex(await sm.getStorage(address(0), slot(1)))).toBe('0xaa');
    expect(bytesToHex(await sm.getStorage(address(0), slot(2)))).toBe('0x');
    await sm.setStateRoot(after);
    expect(bytesToHex(await sm.getStorage(address(0), slot(1)))).toBe('0xbb');
    expect(bytesToHex(await sm.getStorage(address(0), slot(2)))).toBe('0xcc');
  });

  it('stores values with leading zero bytes as stock does: unpadded, and all zeros as a cleared slot', async () => {
    const ours = new ChainStateManager({ caches: new Caches() });
    const stock = new MerkleStateManager({ caches: new Caches() });
    const values = [
      Uint8Array.of(0, 0, 5),
      new Uint8Array(32),
      Uint8Array.of(7, 0),
      setLengthLeft(Uint8Array.of(1, 2), 32),
      new Uint8Array(0),
    ];
    for (const m of [ours, stock]) {
      await m.putAccount(address(0), new Account(0n, 1n));
      for (let i = 0; i < values.length; i++) await m.putStorage(address(0), slot(i), values[i]);
      // A slot written then zeroed is cleared.
      await m.putStorage(address(0), slot(9), Uint8Array.of(3));
      await m.putStorage(address(0), slot(9), new Uint8Array(32));
    }
    for (const i of [0, 1, 2, 3, 4, 9]) {
      expect(bytesToHex(await ours.getStorage(address(0), slot(i)))).toBe(
        bytesToHex(await stock.getStorage(address(0), slot(i))),
      );
    }
    expect(bytesToHex(await ours.getStateRoot())).toBe(bytesToHex(await stock.getStateRoot()));
  });
});
