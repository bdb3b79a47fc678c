import { defineRpcMethod } from '@ashlar/core';
import { address, boolean } from '../params/index.js';
import { dev } from './services.js';

/** eth_sendTransaction from this address is accepted unsigned from now on. */
export const hardhat_impersonateAccount = defineRpcMethod({
  name: 'hardhat_impersonateAccount',
  aliases: ['anvil_impersonateAccount'],
  params: [address('address')],
  handler: (ctx, [addr]) => {
    const d = dev(ctx.services);
    d.impersonation.add(addr);
    d.addresses.add(addr);
    return true;
  },
});

/** Ends an impersonation; false when the address was not impersonated (Hardhat's answer). */
export const hardhat_stopImpersonatingAccount = defineRpcMethod({
  name: 'hardhat_stopImpersonatingAccount',
  aliases: ['anvil_stopImpersonatingAccount'],
  params: [address('address')],
  handler: (ctx, [addr]) => dev(ctx.services).impersonation.remove(addr),
});

/** Anvil's switch: every address is impersonated while it is on. */
export const anvil_autoImpersonateAccount = defineRpcMethod({
  name: 'anvil_autoImpersonateAccount',
  params: [boolean('enabled')],
  handler: (ctx, [enabled]) => {
    dev(ctx.services).impersonation.auto = enabled;
    return true;
  },
});
