import { readFileSync } from 'node:fs';
import { Interface } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS_PATH,
  type CompiledContracts,
  compileContracts,
  compilerVersion,
  serializeArtifacts,
} from './contracts/compile.js';
import { CONTRACT_NAMES, loadArtifact, loadArtifacts } from './helpers/contracts.js';

const REGENERATE = 'run `node --import tsx test/contracts/compile.ts` and commit test/contracts/artifacts.json';

describe('test/contracts/artifacts.json', () => {
  let fresh: CompiledContracts;

  beforeAll(() => {
    fresh = compileContracts();
  });

  it('compiles every fixture contract from source', () => {
    expect(Object.keys(fresh)).toEqual([...CONTRACT_NAMES]);
  });

  it('is current: identical to a fresh compilation of the .sol sources', () => {
    const committed = JSON.parse(readFileSync(ARTIFACTS_PATH, 'utf8')) as CompiledContracts;
    expect(committed, `artifacts.json is stale (recompiled with solc ${compilerVersion()}); ${REGENERATE}`).toEqual(
      fresh,
    );
    // Byte-for-byte too, so formatting drift is caught as well as content drift.
    expect(readFileSync(ARTIFACTS_PATH, 'utf8'), `artifacts.json is not in canonical form; ${REGENERATE}`).toBe(
      serializeArtifacts(fresh),
    );
  });

  it('loads through the typed helper', () => {
    const all = loadArtifacts();
    for (const name of CONTRACT_NAMES) {
      const artifact = loadArtifact(name);
      expect(artifact).toBe(all[name]);
      expect(artifact.contractName).toBe(name);
      expect(artifact.bytecode.length).toBeGreaterThan(2);
      expect(artifact.deployedBytecode.length).toBeGreaterThan(2);
      expect(artifact.bytecode.length).toBeGreaterThan(artifact.deployedBytecode.length);
    }
  });

  it('exposes the ABI surface the end-to-end tests rely on', () => {
    const counter = new Interface(loadArtifact('Counter').abi);
    for (const fn of ['count()', 'owner()', 'increment()', 'add(uint256)', 'fail()', 'guarded()', 'panic()']) {
      expect(counter.getFunction(fn), fn).not.toBeNull();
    }
    expect(counter.getEvent('Incremented')?.format('sighash')).toBe('Incremented(address,uint256)');
    expect(counter.getError('NotOwner')?.format('sighash')).toBe('NotOwner(address)');

    const token = new Interface(loadArtifact('Token').abi);
    for (const fn of [
      'name()',
      'symbol()',
      'decimals()',
      'totalSupply()',
      'balanceOf(address)',
      'transfer(address,uint256)',
      'approve(address,uint256)',
      'transferFrom(address,address,uint256)',
      'allowance(address,address)',
    ]) {
      expect(token.getFunction(fn), fn).not.toBeNull();
    }
    expect(token.getEvent('Transfer')?.topicHash).toBe(
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    );
    expect(token.getEvent('Approval')?.topicHash).toBe(
      '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
    );

    expect(new Interface(loadArtifact('Loop').abi).getFunction('spin()')).not.toBeNull();
    const factory = new Interface(loadArtifact('Factory').abi);
    for (const fn of ['deploy()', 'deploy2(bytes32)', 'predict(bytes32)']) {
      expect(factory.getFunction(fn), fn).not.toBeNull();
    }
    expect(factory.getEvent('Deployed')).not.toBeNull();
  });
});
