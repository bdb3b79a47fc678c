import { defineRpcMethod, toData } from '@ashlar/core';
import { transactionRequest } from '../params/index.js';
import { signRequest } from '../shared/sign.js';

export const eth_signTransaction = defineRpcMethod({
  name: 'eth_signTransaction',
  params: [transactionRequest('transaction')],
  handler: async (ctx, [req]) => toData((await signRequest(ctx.services, req)).serialize()),
});
