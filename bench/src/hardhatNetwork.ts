// Hardhat's in-process network (`hre.network.provider`, EDR) for the dev-suite comparison, with
// no project folder: Hardhat 2 finds its config by walking up from the working directory when
// `require('hardhat')` builds the runtime environment, so a temp dir holds a minimal config for
// that moment and is removed at close. Nothing is written into the repo.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DevChain, Request } from './devSuiteShape.js';

// Ashlar's dev defaults: chain id 31337, 20 accounts of 10000 ETH from the `test … junk` mnemonic
// (Hardhat's defaults too), block gas limit 30M (Hardhat's default is 60M), genesis base fee
// 1 gwei. Ashlar runs bpo2, whose EVM rules are Osaka's (BPO forks only move blob parameters);
// osaka is the newest fork Hardhat 2.29 knows.
const CONFIG = `module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      hardfork: 'osaka',
      blockGasLimit: 30000000,
      initialBaseFeePerGas: 1000000000,
      accounts: { mnemonic: 'test test test test test test test test test test test junk', count: 20 },
    },
  },
};
`;

interface HardhatRuntime {
  version?: string;
  network: { name: string; provider: { request: Request } };
}

export interface HardhatNetwork {
  version: string;
  /** A fresh chain: hardhat_reset of the one in-process network (there is one per process). */
  open(): Promise<DevChain>;
  close(): void;
}

/** Hardhat's in-process network, or why it cannot run here. */
export async function openHardhat(): Promise<HardhatNetwork | { skipped: string }> {
  const require = createRequire(import.meta.url);
  let version: string;
  try {
    version = (require('hardhat/package.json') as { version: string }).version;
  } catch {
    return { skipped: 'hardhat is not installed (bench devDependency)' };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ashlar-bench-hardhat-'));
  writeFileSync(join(dir, 'hardhat.config.cjs'), CONFIG);
  const cwd = process.cwd();
  let hre: HardhatRuntime;
  try {
    process.chdir(dir);
    hre = require('hardhat') as HardhatRuntime;
    // The provider is built lazily, on its first request: still inside the temp project.
    await hre.network.provider.request({ method: 'eth_chainId' });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { skipped: `hardhat ${version} did not start: ${(e as Error).message}` };
  } finally {
    process.chdir(cwd);
  }
  const request: Request = (args) => hre.network.provider.request(args);
  return {
    version,
    async open() {
      await request({ method: 'hardhat_reset', params: [] });
      return { request, close: async () => {} };
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
