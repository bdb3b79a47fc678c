import { readFileSync } from 'node:fs';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/createKernel.js';
import { createGethCommon, type GethGenesisJson, gethNumber } from './gethGenesis.js';

const genesis: GethGenesisJson = JSON.parse(
  readFileSync(new URL('../../../../test/fixtures/execution-apis/tests/genesis.json', import.meta.url), 'utf8'),
);

describe('geth genesis', () => {
  it('builds the genesis geth builds: same hash, state root and header fields', async () => {
    const k = await createKernel({ chain: { genesis } });
    try {
      const g = k.chain.genesis.block.header;
      expect(bytesToHex(k.chain.genesis.hash)).toBe(
        '0x44fd89d504659cd58f48f4796b77a7e7012cf296a2409afa2f6c3cb99b5b3d99',
      );
      expect(bytesToHex(g.stateRoot)).toBe('0xdc43f460541a253c0f64b6943ef83fa3bd601699a255622f088d46f7fde359fc');
      expect(bytesToHex(g.extraData)).toBe('0x68697665636861696e');
      expect(g.difficulty).toBe(0x20000n);
      expect(k.options.chain.chainId).toBe(3503995874084926n);
      // The code, storage and nonce of an allocated account.
      const sm = k.chain.vm.stateManager;
      const holder = createAddressFromString('0x8bebc8ba651aee624937e7d897853ac30c95a067');
      expect((await sm.getAccount(holder))?.nonce).toBe(1n);
      const emitter = createAddressFromString('0x7dcd17433742f4c0ca53122ab541d0ba67fc27df');
      expect(bytesToHex(await sm.getCode(emitter))).toMatch(/^0x36/);
    } finally {
      await k.close();
    }
  });

  it('schedules forks by block and time, with the blob schedule of each', () => {
    const c = createGethCommon(genesis);
    c.setHardforkBy({ blockNumber: 9n, timestamp: 90n });
    expect(c.hardfork()).toBe('byzantium');
    c.setHardforkBy({ blockNumber: 35n, timestamp: 350n });
    expect(c.gteHardfork('paris')).toBe(false);
    // The merge is at mergeNetsplitBlock (36), the first proof-of-stake block.
    c.setHardforkBy({ blockNumber: 36n, timestamp: 360n });
    expect(c.gteHardfork('paris')).toBe(true);
    c.setHardforkBy({ blockNumber: 54n, timestamp: 540n });
    expect(c.hardfork()).toBe('bpo2');
    expect(c.getBlobGasSchedule().maxBlobGasPerBlock).toBe(21n * 131072n);
    c.setHardforkBy({ blockNumber: 42n, timestamp: 420n });
    expect(c.getBlobGasSchedule().targetBlobGasPerBlock).toBe(3n * 131072n);
  });

  it('reads numbers as geth writes them', () => {
    expect(gethNumber('0x10', 'x')).toBe(16n);
    expect(gethNumber('16', 'x')).toBe(16n);
    expect(gethNumber(16, 'x')).toBe(16n);
    expect(gethNumber(undefined, 'x', 7n)).toBe(7n);
    expect(() => gethNumber('ten', 'gasLimit')).toThrow(/gasLimit is not a number/);
  });

  it('rejects a chain id that contradicts the genesis, and a malformed allocation', async () => {
    await expect(createKernel({ chain: { genesis, chainId: 1 } })).rejects.toThrow(/differs from chain.genesis/);
    const bad = { ...genesis, alloc: { nope: { balance: '0x1' } } };
    await expect(createKernel({ chain: { genesis: bad } })).rejects.toThrow(/alloc key "nope"/);
  });
});
