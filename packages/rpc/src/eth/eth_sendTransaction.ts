import { defineRpcMethod } from '@ashlar/core';
import { sendAnswer } from '../shared/sendAnswer.js';
import { transactionRequest } from '../params/index.js';
import { prepareSend, withSenderLock } from '../shared/sign.js';

/** Sends from a dev account (signed by the node) or from an impersonated one (unsigned, as Hardhat). */
export const eth_sendTransaction = defineRpcMethod({
  name: 'eth_sendTransaction',
  params: [transactionRequest('transaction')],
  handler: (ctx, [req]) =>
    withSenderLock(ctx.services, req.from?.toString() ?? '', async () => {
      const { tx, raw, sender, impersonated } = await prepareSend(ctx.services, req);
      return sendAnswer(ctx.services, await ctx.services.txs.submit(tx, sender, { impersonated, raw }), tx);
    }),
});
