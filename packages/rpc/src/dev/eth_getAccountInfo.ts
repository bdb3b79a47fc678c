import { defineRpcMethod, toData, toQuantity } from '@ashlar/core';
import { LATEST, address, blockTagOrHash, withDefault } from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';

/**
 * Anvil's: an account's balance, nonce and code in one call, at a block (Foundry's fork-based
 * commands ask it first). Anvil requires the block; it defaults to latest here, as eth_getBalance.
 */
export const eth_getAccountInfo = defineRpcMethod({
  name: 'eth_getAccountInfo',
  params: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: (ctx, [addr, block]) =>
    readState(ctx.services, toBlockRef(block), async (sm) => {
      const account = await sm.getAccount(addr);
      return {
        balance: toQuantity(account?.balance ?? 0n),
        nonce: toQuantity(account?.nonce ?? 0n),
        code: toData(account?.isContract() ? await sm.getCode(addr) : new Uint8Array()),
      };
    }),
});
