import { defineRpcMethod } from '@ashlar/core';
import { sendAnswer } from '../shared/sendAnswer.js';
import { data } from '../params/index.js';

export const eth_sendRawTransaction = defineRpcMethod({
  name: 'eth_sendRawTransaction',
  params: [data('transaction')],
  handler: async (ctx, [raw]) => {
    const txs = ctx.services.txs;
    const tx = txs.decodeRaw(raw);
    const sender = txs.recoverSender(tx);
    return sendAnswer(ctx.services, await txs.submit(tx, sender), tx);
  },
});
