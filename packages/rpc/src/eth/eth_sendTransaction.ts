import { defineRpcMethod } from '@ashlar/core';
import { sendAnswer } from '../shared/sendAnswer.js';
import { transactionRequest } from '../params/index.js';
import { prepareSend, withSenderLock } from '../shared/sign.js';

/** Sends from a dev account (signed by the node) or from an impersonated one (unsigned, as Hardhat). */
export const eth_sendTransaction = defineRpcMethod({
  name: 'eth_sendTransaction',
  params: [transactionRequest('transaction')],
  handler: (ctx, [req]) =>
    withSenderLock(ctx.kernel, req.from?.toString() ?? '', async () => {
      const { tx, sender, impersonated } = await prepareSend(ctx.kernel, req);
      return sendAnswer(ctx.kernel, await ctx.kernel.txs.submit(tx, sender, { impersonated }), tx);
    }),
});
