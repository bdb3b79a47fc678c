import { readFileSync } from 'node:fs';
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import {
  ETHEREUMJS_PACKAGES,
  ETHEREUMJS_VERSION,
  EngineInternalsError,
  type InstalledVersions,
  type InternalsProbe,
  assertEngineInternals,
  checkEngineInternals,
  installedEthereumjsVersions,
  missingInternals,
} from './internals.js';

const allAt = (v: string): InstalledVersions => Object.fromEntries(ETHEREUMJS_PACKAGES.map((p) => [p, v]));

/** A probe shaped as @ethereumjs 10.1.3's objects are (only the fields internals.ts reads). */
function goodProbe(): InternalsProbe {
  const stop = { opcodeInfo: { isAsync: false }, opHandler: () => undefined };
  return {
    evm: { _opcodeMap: [stop], _precompiles: new Map() },
    common: { _chainParams: {}, _params: {} },
    stateManager: {
      _caches: { storage: { _diffCache: [new Map()], flush: () => [], put: () => undefined } },
      _getStorageTrie: () => undefined,
      _storageTries: {},
      keccakFunction: () => new Uint8Array(32),
    },
    header: { cache: {} },
    message: { _codeAddress: new Address(new Uint8Array(20)) },
    interpreter: { _env: { contract: { balance: 0n } }, _result: { logs: [] } },
  };
}

describe('@ethereumjs internals check', () => {
  it('passes on the installed packages (versions pinned, every field found)', async () => {
    expect(installedEthereumjsVersions()).toEqual(allAt(ETHEREUMJS_VERSION));
    await expect(checkEngineInternals()).resolves.toBeUndefined();
  });

  it('every package.json pins @ethereumjs/* to the version the module names', () => {
    for (const pkg of ['packages/core', 'packages/rpc', 'packages/explorer', 'bench']) {
      const json = JSON.parse(readFileSync(new URL(`../../../../${pkg}/package.json`, import.meta.url), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const [name, range] of Object.entries(json.dependencies ?? {})) {
        if (name.startsWith('@ethereumjs/'))
          expect(`${pkg}: ${name} ${range}`).toBe(`${pkg}: ${name} ${ETHEREUMJS_VERSION}`);
      }
    }
  });

  it('names each missing or reshaped field', () => {
    expect(missingInternals(goodProbe())).toEqual([]);
    const p = goodProbe();
    p.evm = { _opcodeMap: new Map(), _precompiles: {} };
    p.common = { chainParams: {}, _params: {} };
    p.interpreter = { env: {}, _result: { logs: [] } };
    expect(missingInternals(p)).toEqual([
      'EVM._opcodeMap',
      'EVM._precompiles',
      'Common._chainParams',
      'Interpreter._env.contract.balance',
    ]);
  });

  it('fails naming the expected and found versions, and the missing field', () => {
    const installed = { ...allAt(ETHEREUMJS_VERSION), evm: '10.2.0', vm: undefined };
    const probe = goodProbe();
    probe.evm = { _precompiles: new Map() }; // a release that renamed _opcodeMap
    let error: unknown;
    try {
      assertEngineInternals(installed, probe);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngineInternalsError);
    const message = (error as Error).message;
    expect(message).toContain(`needs @ethereumjs/* ${ETHEREUMJS_VERSION} exactly`);
    expect(message).toContain('found @ethereumjs/block 10.1.3, @ethereumjs/common 10.1.3, @ethereumjs/evm 10.2.0');
    expect(message).toContain('Not 10.1.3: @ethereumjs/evm 10.2.0, @ethereumjs/vm (not found).');
    expect(message).toContain('Missing or changed fields: EVM._opcodeMap.');
    expect(message).toContain('Upgrading @ethereumjs');
  });

  it('fails on a version change alone, even with every field present', () => {
    expect(() => assertEngineInternals(allAt('10.1.4'), goodProbe())).toThrow(
      /found @ethereumjs\/block 10\.1\.4, .*Not 10\.1\.3: @ethereumjs\/block 10\.1\.4/,
    );
    expect(() => assertEngineInternals(allAt(ETHEREUMJS_VERSION), goodProbe())).not.toThrow();
  });
});
