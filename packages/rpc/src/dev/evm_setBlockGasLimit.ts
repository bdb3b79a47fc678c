import { defineRpcMethod } from '@ashlar/core';
import { argumentError } from '../params/index.js';
import { quantityOrNumber } from './params.js';

/** Gas limit of the blocks mined from now on. */
export const evm_setBlockGasLimit = defineRpcMethod({
  name: 'evm_setBlockGasLimit',
  params: [quantityOrNumber('gasLimit')],
  handler: (ctx, [gasLimit]) => {
    if (gasLimit < 21_000n) throw argumentError(0, 'gasLimit', `block gas limit ${gasLimit} is below 21000`);
    ctx.services.miner.gasLimit = gasLimit;
    return true;
  },
});
