import { defineRpcMethod } from '@ashlar/core';
import { sendAnswer } from '../shared/sendAnswer.js';
import { transactionRequest } from '../params/index.js';
import { prepareSend, withSenderLock } from '../shared/sign.js';

/** Anvil's: sends a transaction from any `from` without a signature, impersonated or not. */
export const eth_sendUnsignedTransaction = defineRpcMethod({
  name: 'eth_sendUnsignedTransaction',
  params: [transactionRequest('transaction')],
  handler: (ctx, [req]) =>
    withSenderLock(ctx.services, req.from?.toString() ?? '', async () => {
      const { tx, sender } = await prepareSend(ctx.services, req, { unsigned: true });
      return sendAnswer(ctx.services, await ctx.services.txs.submit(tx, sender, { impersonated: true }), tx);
    }),
});
