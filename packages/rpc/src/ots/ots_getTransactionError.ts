import { defineRpcMethod, toData } from '@ashlar/core';
import { hash } from '../params/index.js';
import { minedFrame } from './minedFrame.js';

/** The revert data of a failed transaction; `0x` for one that succeeded (or failed without data). */
export const ots_getTransactionError = defineRpcMethod({
  name: 'ots_getTransactionError',
  params: [hash('transactionHash')],
  handler: async (ctx, [h]) => {
    const { frame } = await minedFrame(ctx.services, h);
    return frame.error === 'revert' ? toData(frame.output) : '0x';
  },
});
