import { defineRpcMethod, setCode } from '@ashlar/core';
import { address, data } from '../params/index.js';
import { dev } from './services.js';

/** Sets an account's code in the head state; "0x" removes it. */
export const hardhat_setCode = defineRpcMethod({
  name: 'hardhat_setCode',
  aliases: ['anvil_setCode'],
  params: [address('address'), data('code')],
  handler: async (ctx, [addr, code]) => {
    dev(ctx.services).addresses.add(addr);
    await setCode(ctx.services.chain, addr, code);
    return true;
  },
});
