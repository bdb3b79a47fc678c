import { definePlugin, installDevServices } from '@ashlar/core';
import { anvil_dumpState, anvil_loadState } from './anvil_dumpState.js';
import { ashlar_addWithdrawals } from './ashlar_addWithdrawals.js';
import { eth_sendUnsignedTransaction } from './eth_sendUnsignedTransaction.js';
import { evm_increaseTime } from './evm_increaseTime.js';
import { evm_revert } from './evm_revert.js';
import { evm_setBlockGasLimit } from './evm_setBlockGasLimit.js';
import { anvil_setIntervalMining, evm_setIntervalMining } from './evm_setIntervalMining.js';
import { evm_setNextBlockTimestamp } from './evm_setNextBlockTimestamp.js';
import { evm_snapshot } from './evm_snapshot.js';
import { hardhat_dropTransaction } from './hardhat_dropTransaction.js';
import { hardhat_getAutomine } from './hardhat_getAutomine.js';
import {
  anvil_autoImpersonateAccount,
  hardhat_impersonateAccount,
  hardhat_stopImpersonatingAccount,
} from './hardhat_impersonateAccount.js';
import { anvil_metadata, anvil_nodeInfo, hardhat_metadata } from './hardhat_metadata.js';
import {
  anvil_removeBlockTimestampInterval,
  anvil_setBlockTimestampInterval,
  hardhat_setPrevRandao,
} from './blockFields.js';
import { eth_getAccountInfo } from './eth_getAccountInfo.js';
import { hardhat_mine } from './hardhat_mine.js';
import { hardhat_reset } from './hardhat_reset.js';
import { hardhat_setBalance } from './hardhat_setBalance.js';
import { hardhat_setCode } from './hardhat_setCode.js';
import { hardhat_setNonce } from './hardhat_setNonce.js';
import { hardhat_setStorageAt } from './hardhat_setStorageAt.js';
import {
  hardhat_setCoinbase,
  hardhat_setLoggingEnabled,
  hardhat_setMinGasPrice,
  hardhat_setNextBlockBaseFeePerGas,
} from './minerSettings.js';
import { txpool_content, txpool_contentFrom, txpool_inspect, txpool_status } from './txpool.js';

/** The dev namespaces (evm_, hardhat_/anvil_, txpool_, ashlar_): the explicit list of their methods. */
export const devMethods = [
  evm_snapshot,
  evm_revert,
  evm_increaseTime,
  evm_setNextBlockTimestamp,
  evm_setIntervalMining,
  anvil_setIntervalMining,
  evm_setBlockGasLimit,
  hardhat_mine,
  hardhat_getAutomine,
  hardhat_setBalance,
  hardhat_setCode,
  hardhat_setNonce,
  hardhat_setStorageAt,
  hardhat_impersonateAccount,
  hardhat_stopImpersonatingAccount,
  anvil_autoImpersonateAccount,
  eth_sendUnsignedTransaction,
  hardhat_dropTransaction,
  hardhat_setNextBlockBaseFeePerGas,
  hardhat_setCoinbase,
  hardhat_setMinGasPrice,
  hardhat_setLoggingEnabled,
  hardhat_reset,
  hardhat_metadata,
  anvil_metadata,
  anvil_nodeInfo,
  hardhat_setPrevRandao,
  anvil_setBlockTimestampInterval,
  anvil_removeBlockTimestampInterval,
  eth_getAccountInfo,
  anvil_dumpState,
  anvil_loadState,
  txpool_content,
  txpool_contentFrom,
  txpool_status,
  txpool_inspect,
  ashlar_addWithdrawals,
];

/**
 * Test-chain methods of Hardhat and Anvil (both spellings, one definition each) and the
 * services behind them. Depends on rpc:evm-mining: Hardhat's and Anvil's test flows pair these
 * methods with its evm_mine/evm_setAutomine (evm_mine also honours the dev services' block times).
 */
export const devPlugin = definePlugin({
  name: 'rpc:dev',
  dependencies: ['rpc:evm-mining'],
  register: (ctx) => {
    installDevServices(ctx);
    ctx.addMethods(...devMethods);
  },
});
