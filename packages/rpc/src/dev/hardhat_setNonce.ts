import { defineRpcMethod, editState } from '@ashlar/core';
import { Account } from '@ethereumjs/util';
import { address, argumentError } from '../params/index.js';
import { nonNegativeQuantity } from './params.js';
import { dev } from './services.js';

/**
 * Sets an account's nonce. As Hardhat, it may not go down (the account's mined transactions
 * would become replayable); pooled transactions of the account below the new nonce are dropped.
 */
export const hardhat_setNonce = defineRpcMethod({
  name: 'hardhat_setNonce',
  aliases: ['anvil_setNonce'],
  params: [address('address'), nonNegativeQuantity('nonce')],
  handler: async (ctx, [addr, nonce]) => {
    const svc = ctx.services;
    dev(svc).addresses.add(addr);
    await editState(svc.chain, async (sm) => {
      const acct = (await sm.getAccount(addr)) ?? new Account();
      if (nonce < acct.nonce) {
        throw argumentError(1, 'nonce', `new nonce ${nonce} must not be smaller than the existing nonce ${acct.nonce}`);
      }
      acct.nonce = nonce;
      await sm.putAccount(addr, acct);
      svc.mempool.pruneBelow(addr, nonce);
    });
    return true;
  },
});
