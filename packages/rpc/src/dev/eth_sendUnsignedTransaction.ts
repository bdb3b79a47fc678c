import { defineRpcMethod } from '@ashlar/core';
import { sendAnswer } from '../shared/sendAnswer.js';
import { transactionRequest } from '../params/index.js';
import { prepareSend, withSenderLock } from '../shared/sign.js';

/** Anvil's: sends a transaction from any `from` without a signature, impersonated or not. */
export const eth_sendUnsignedTransaction = defineRpcMethod({
  name: 'eth_sendUnsignedTransaction',
  params: [transactionRequest('transaction')],
  handler: (ctx, [req]) =>
    withSenderLock(ctx.kernel, req.from?.toString() ?? '', async () => {
      const { tx, sender } = await prepareSend(ctx.kernel, req, { unsigned: true });
      return sendAnswer(ctx.kernel, await ctx.kernel.txs.submit(tx, sender, { impersonated: true }), tx);
    }),
});
