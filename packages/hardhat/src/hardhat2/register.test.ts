import { describe, expect, it } from 'vitest';
import { Hardhat2AshlarProvider } from './Hardhat2AshlarProvider.js';
import { type Hardhat2ConfigApi, type Hardhat2Runtime, registerHardhat2 } from './register.js';

/** Hardhat 2's config API, recording what the extension registers. */
function fakeApi() {
  const configExtenders: Parameters<Hardhat2ConfigApi['extendConfig']>[0][] = [];
  const envExtenders: Parameters<Hardhat2ConfigApi['extendEnvironment']>[0][] = [];
  const api: Hardhat2ConfigApi = {
    extendConfig: (fn) => configExtenders.push(fn),
    extendEnvironment: (fn) => envExtenders.push(fn),
  };
  return { api, configExtenders, envExtenders };
}

describe('registerHardhat2', () => {
  it('copies the `ashlar` options and replaces only the hardhat network provider', () => {
    const { api, configExtenders, envExtenders } = fakeApi();
    registerHardhat2(api);
    const config: Record<string, unknown> = {};
    configExtenders[0](config, { ashlar: { hardfork: 'prague' } });
    expect(config.ashlar).toEqual({ hardfork: 'prague' });
    const hardhatHre: Hardhat2Runtime = { config: { ashlar: {} }, network: { name: 'hardhat', provider: 'edr' } };
    envExtenders[0](hardhatHre);
    expect(hardhatHre.network.provider).toBeInstanceOf(Hardhat2AshlarProvider);
    const otherHre: Hardhat2Runtime = { config: { ashlar: {} }, network: { name: 'ashlar', provider: 'http' } };
    envExtenders[0](otherHre);
    expect(otherHre.network.provider).toBe('http');
  });

  it('defaults the options to none', () => {
    const { api, configExtenders } = fakeApi();
    registerHardhat2(api);
    const config: Record<string, unknown> = {};
    configExtenders[0](config, {});
    expect(config.ashlar).toEqual({});
  });
});
