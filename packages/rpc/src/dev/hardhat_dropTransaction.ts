import { defineRpcMethod } from '@ashlar/core';
import { argumentError, hash } from '../params/index.js';

/**
 * Removes a transaction from the pool: true when it was there, false when the node does not
 * know it. A mined transaction cannot be dropped (-32602, as Hardhat).
 */
export const hardhat_dropTransaction = defineRpcMethod({
  name: 'hardhat_dropTransaction',
  aliases: ['anvil_dropTransaction'],
  params: [hash('hash')],
  handler: (ctx, [txHash]) =>
    ctx.services.chain.exclusive(async () => {
      const svc = ctx.services;
      const hex = `0x${Buffer.from(txHash).toString('hex')}`;
      if (svc.mempool.remove(hex)) return true;
      if (await svc.chain.getTransactionLocation(txHash)) {
        throw argumentError(0, 'hash', `transaction ${hex} cannot be dropped because it is already mined`);
      }
      return false;
    }),
});
