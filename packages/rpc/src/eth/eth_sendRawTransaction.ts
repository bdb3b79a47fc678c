import { defineRpcMethod, toData } from '@ashlar/core';
import { data } from '../params/index.js';

export const eth_sendRawTransaction = defineRpcMethod({
  name: 'eth_sendRawTransaction',
  params: [data('transaction')],
  handler: async (ctx, [raw]) => {
    const txs = ctx.kernel.txs;
    const tx = txs.decodeRaw(raw);
    const sender = txs.recoverSender(tx);
    const { hash } = await txs.submit(tx, sender);
    return toData(hash);
  },
});
