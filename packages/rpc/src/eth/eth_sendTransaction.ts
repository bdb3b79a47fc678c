import { defineRpcMethod, toData } from '@ashlar/core';
import { transactionRequest } from '../params/index.js';
import { signRequest, withSenderLock } from '../shared/sign.js';

export const eth_sendTransaction = defineRpcMethod({
  name: 'eth_sendTransaction',
  params: [transactionRequest('transaction')],
  handler: (ctx, [req]) =>
    withSenderLock(ctx.kernel, req.from?.toString() ?? '', async () => {
      const tx = await signRequest(ctx.kernel, req);
      const { hash } = await ctx.kernel.txs.submit(tx, tx.getSenderAddress());
      return toData(hash);
    }),
});
