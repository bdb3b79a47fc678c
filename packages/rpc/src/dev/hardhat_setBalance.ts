import { defineRpcMethod, setBalance } from '@ashlar/core';
import { address } from '../params/index.js';
import { nonNegativeQuantity } from './params.js';
import { dev } from './services.js';

/** Sets an account's balance in the head state (no block is mined). */
export const hardhat_setBalance = defineRpcMethod({
  name: 'hardhat_setBalance',
  aliases: ['anvil_setBalance'],
  params: [address('address'), nonNegativeQuantity('balance')],
  handler: async (ctx, [addr, balance]) => {
    dev(ctx.services).addresses.add(addr);
    await setBalance(ctx.services.chain, addr, balance);
    return true;
  },
});
