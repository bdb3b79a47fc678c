import { defineRpcMethod } from '@ashlar/core';

/** The node-held dev accounts, lowercase as geth returns them. */
export const eth_accounts = defineRpcMethod({
  name: 'eth_accounts',
  aliases: ['eth_requestAccounts'],
  params: [],
  handler: (ctx) => ctx.services.chain.accounts.map((a) => a.address.toString()),
});
