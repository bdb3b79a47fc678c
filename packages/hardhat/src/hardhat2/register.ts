import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AshlarHardhatOptions } from '../options.js';
import { Hardhat2AshlarProvider } from './Hardhat2AshlarProvider.js';

/** The parts of Hardhat 2's runtime environment this extension touches. */
export interface Hardhat2Runtime {
  config: { ashlar?: AshlarHardhatOptions };
  network: { name: string; provider: unknown };
}

/** The two calls of Hardhat 2's `hardhat/config` this extension makes. */
export interface Hardhat2ConfigApi {
  extendConfig(fn: (config: Record<string, unknown>, userConfig: Readonly<Record<string, unknown>>) => void): void;
  extendEnvironment(fn: (hre: Hardhat2Runtime) => void): void;
}

/** Hardhat's config API from the project (where hardhat.config.js runs), else from beside this package. */
function hardhatConfigApi(): Hardhat2ConfigApi {
  for (const base of [join(process.cwd(), 'package.json'), import.meta.url]) {
    try {
      return createRequire(base)('hardhat/config') as Hardhat2ConfigApi;
    } catch {}
  }
  throw new Error('@ashlar/hardhat/hardhat2: hardhat (2.x) is not installed in this project');
}

/**
 * Copies the user config's `ashlar` options into the resolved config, and gives the `hardhat`
 * network an in-process Ashlar chain in place of Hardhat's own. Other networks (`--network x`)
 * are left alone.
 */
export function registerHardhat2(api: Hardhat2ConfigApi = hardhatConfigApi()): void {
  api.extendConfig((config, userConfig) => {
    config.ashlar = (userConfig.ashlar as AshlarHardhatOptions | undefined) ?? {};
  });
  api.extendEnvironment((hre) => {
    if (hre.network.name !== 'hardhat') return;
    hre.network.provider = new Hardhat2AshlarProvider(hre.config.ashlar ?? {});
  });
}
