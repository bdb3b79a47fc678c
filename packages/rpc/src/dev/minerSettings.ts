// Settings of the blocks to come: base fee, beneficiary, minimum gas price, logging.
import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { address, boolean } from '../params/index.js';
import { quantityOrNumber } from './params.js';

/** Base fee of the next block only (London and later). */
export const hardhat_setNextBlockBaseFeePerGas = defineRpcMethod({
  name: 'hardhat_setNextBlockBaseFeePerGas',
  aliases: ['anvil_setNextBlockBaseFeePerGas'],
  params: [quantityOrNumber('baseFeePerGas')],
  handler: (ctx, [fee]) => {
    if (!ctx.services.chain.common.isActivatedEIP(1559)) {
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        'hardhat_setNextBlockBaseFeePerGas is disabled: EIP-1559 is not active on this hardfork',
      );
    }
    ctx.services.miner.nextBaseFee = fee;
    return true;
  },
});

/** Beneficiary of the blocks mined from now on. */
export const hardhat_setCoinbase = defineRpcMethod({
  name: 'hardhat_setCoinbase',
  aliases: ['anvil_setCoinbase'],
  params: [address('address')],
  handler: (ctx, [addr]) => {
    ctx.services.miner.coinbase = addr.toString();
    return true;
  },
});

/**
 * Lowest gas price (legacy) or fee cap (EIP-1559) the pool accepts. Hardhat and Anvil refuse it
 * after London; Ashlar's pool checks it on every fork, so it is kept.
 */
export const hardhat_setMinGasPrice = defineRpcMethod({
  name: 'hardhat_setMinGasPrice',
  aliases: ['anvil_setMinGasPrice'],
  params: [quantityOrNumber('minGasPrice')],
  handler: (ctx, [price]) => {
    ctx.services.miner.minGasPrice = price;
    return true;
  },
});

/** Accepted for client compatibility (viem's setLoggingEnabled); the node logs through its own logger. */
export const hardhat_setLoggingEnabled = defineRpcMethod({
  name: 'hardhat_setLoggingEnabled',
  aliases: ['anvil_setLoggingEnabled'],
  params: [boolean('enabled')],
  handler: () => true,
});
