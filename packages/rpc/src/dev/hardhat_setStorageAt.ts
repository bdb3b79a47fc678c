import { defineRpcMethod, setStorageAt } from '@ashlar/core';
import { address, fixedData } from '../params/index.js';
import { storageSlot } from './params.js';
import { dev } from './services.js';

/** Writes one storage slot of an account in the head state; the value is 32 bytes (Hardhat's rule). */
export const hardhat_setStorageAt = defineRpcMethod({
  name: 'hardhat_setStorageAt',
  aliases: ['anvil_setStorageAt'],
  params: [address('address'), storageSlot('slot'), fixedData('value', 32)],
  handler: async (ctx, [addr, slot, value]) => {
    dev(ctx.services).addresses.add(addr);
    await setStorageAt(ctx.services.chain, addr, slot, value);
    return true;
  },
});
