import { definePlugin } from '@ashlar/core';
import { eth_sign, personal_sign } from './eth_sign.js';
import { eth_signTypedData_v4 } from './eth_signTypedData_v4.js';

/** Message signing with the node's dev keys. */
export const signMethods = [eth_sign, personal_sign, eth_signTypedData_v4];

export const signPlugin = definePlugin({
  name: 'rpc:sign',
  register: (ctx) => ctx.addMethods(...signMethods),
});
