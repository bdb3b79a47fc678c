import { defineRpcMethod, toData, toQuantity } from '@ashlar/core';

/** Ashlar is an archive node: every resource is kept from genesis and never pruned. */
export const eth_capabilities = defineRpcMethod({
  name: 'eth_capabilities',
  params: [],
  handler: (ctx) => {
    const head = ctx.services.chain.head;
    const all = { disabled: false, oldestBlock: '0x0' };
    return {
      head: { number: toQuantity(head.number), hash: toData(head.hash) },
      state: all,
      tx: all,
      logs: all,
      receipts: all,
      blocks: all,
      stateproofs: all,
    };
  },
});
