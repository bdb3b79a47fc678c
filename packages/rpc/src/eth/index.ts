import { definePlugin, logIndexOf, recentTxsOf } from '@ashlar/core';
import { eth_accounts } from './eth_accounts.js';
import { eth_blobBaseFee } from './eth_blobBaseFee.js';
import { eth_baseFee } from './eth_baseFee.js';
import { eth_blockNumber } from './eth_blockNumber.js';
import { eth_call } from './eth_call.js';
import { eth_capabilities } from './eth_capabilities.js';
import { eth_chainId } from './eth_chainId.js';
import { eth_coinbase } from './eth_coinbase.js';
import { eth_config } from './eth_config.js';
import { eth_createAccessList } from './eth_createAccessList.js';
import { eth_estimateGas } from './eth_estimateGas.js';
import { eth_feeHistory } from './eth_feeHistory.js';
import { eth_gasPrice } from './eth_gasPrice.js';
import { eth_getBalance } from './eth_getBalance.js';
import { eth_getBlockByHash } from './eth_getBlockByHash.js';
import { eth_getBlockByNumber } from './eth_getBlockByNumber.js';
import { eth_getBlockReceipts } from './eth_getBlockReceipts.js';
import { eth_getBlockTransactionCountByHash } from './eth_getBlockTransactionCountByHash.js';
import { eth_getBlockTransactionCountByNumber } from './eth_getBlockTransactionCountByNumber.js';
import { eth_getCode } from './eth_getCode.js';
import { eth_getLogs } from './eth_getLogs.js';
import { eth_getProof } from './eth_getProof.js';
import { eth_getStorageAt } from './eth_getStorageAt.js';
import { eth_getStorageValues } from './eth_getStorageValues.js';
import { eth_getTransactionByBlockHashAndIndex } from './eth_getTransactionByBlockHashAndIndex.js';
import { eth_getTransactionByBlockNumberAndIndex } from './eth_getTransactionByBlockNumberAndIndex.js';
import { eth_getTransactionByHash } from './eth_getTransactionByHash.js';
import { eth_getTransactionCount } from './eth_getTransactionCount.js';
import { eth_getTransactionReceipt } from './eth_getTransactionReceipt.js';
import { eth_hashrate } from './eth_hashrate.js';
import { eth_maxPriorityFeePerGas } from './eth_maxPriorityFeePerGas.js';
import { eth_mining } from './eth_mining.js';
import { eth_protocolVersion } from './eth_protocolVersion.js';
import { eth_sendRawTransaction } from './eth_sendRawTransaction.js';
import { eth_sendTransaction } from './eth_sendTransaction.js';
import { eth_signTransaction } from './eth_signTransaction.js';
import { eth_simulateV1 } from './eth_simulateV1.js';
import { eth_syncing } from './eth_syncing.js';
import {
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
} from './uncles.js';

/** The `eth_` namespace: the explicit list of its methods. */
export const ethMethods = [
  eth_accounts,
  eth_baseFee,
  eth_blobBaseFee,
  eth_blockNumber,
  eth_call,
  eth_capabilities,
  eth_chainId,
  eth_coinbase,
  eth_config,
  eth_createAccessList,
  eth_estimateGas,
  eth_feeHistory,
  eth_gasPrice,
  eth_getBalance,
  eth_getBlockByHash,
  eth_getBlockByNumber,
  eth_getBlockReceipts,
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
  eth_getCode,
  eth_getLogs,
  eth_getProof,
  eth_getStorageAt,
  eth_getStorageValues,
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionByHash,
  eth_getTransactionCount,
  eth_getTransactionReceipt,
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
  eth_hashrate,
  eth_maxPriorityFeePerGas,
  eth_mining,
  eth_protocolVersion,
  eth_sendRawTransaction,
  eth_sendTransaction,
  eth_signTransaction,
  eth_simulateV1,
  eth_syncing,
];

export const ethPlugin = definePlugin({
  name: 'rpc:eth',
  register: (ctx) => {
    ctx.addMethods(...ethMethods);
    // Made with the chain, the log index and the recent-transaction lookup follow every block
    // (instead of scanning the chain on the first eth_getLogs, or reading storage per receipt).
    logIndexOf(ctx.services.chain);
    recentTxsOf(ctx.services.chain);
  },
});
