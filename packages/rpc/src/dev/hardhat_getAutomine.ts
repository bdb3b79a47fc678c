import { defineRpcMethod } from '@ashlar/core';

/** Whether a block is mined for every accepted transaction. */
export const hardhat_getAutomine = defineRpcMethod({
  name: 'hardhat_getAutomine',
  aliases: ['anvil_getAutomine'],
  params: [],
  handler: (ctx) => ctx.services.miner.automine,
});
