// A Hardhat 2 project whose tests run on Ashlar.
//   npx hardhat test                    in-process Ashlar (@ashlar/hardhat), no node to start
//   npx hardhat test --network ashlar   a running `ashlar --memory` over HTTP (ASHLAR_URL)
//   ASHLAR_IN_PROCESS=0 npx hardhat test  Hardhat's own in-process network, for comparison
const { subtask } = require('hardhat/config');
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names');
require('@nomicfoundation/hardhat-ethers');
require('@nomicfoundation/hardhat-chai-matchers');
if (process.env.ASHLAR_IN_PROCESS !== '0') require('@ashlar/hardhat/hardhat2');

const SOLC_VERSION = '0.8.37';

// Compile offline: Hardhat downloads solc by default; the `solc` npm package (solcjs) already
// holds this version's compiler, so the build uses it instead.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return runSuper();
  const solc = require('solc');
  return {
    compilerPath: require.resolve('solc/soljson.js'),
    isSolcJs: true,
    version: args.solcVersion,
    longVersion: solc.version().replace(/\.Emscripten.*$/, ''),
  };
});

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  solidity: { version: SOLC_VERSION, settings: { evmVersion: 'prague' } },
  // Options of the in-process chain (all optional): db, hardfork, chainId, accounts, sendDefaults,
  // port (serve JSON-RPC and the explorer API while the tests run, e.g. ASHLAR_PORT=8545).
  ashlar: process.env.ASHLAR_PORT ? { port: Number(process.env.ASHLAR_PORT) } : {},
  networks: {
    hardhat: { hardfork: 'osaka' },
    ashlar: { url: process.env.ASHLAR_URL ?? 'http://127.0.0.1:8545' },
  },
  mocha: { timeout: 60_000 },
};
