import { defineRpcMethod, toQuantity } from '@ashlar/core';

export const eth_blobBaseFee = defineRpcMethod({
  name: 'eth_blobBaseFee',
  params: [],
  handler: (ctx) => {
    const chain = ctx.services.chain;
    if (!chain.common.isActivatedEIP(4844)) return toQuantity(0n);
    return toQuantity(chain.head.block.header.calcNextBlobGasPrice(chain.common));
  },
});
