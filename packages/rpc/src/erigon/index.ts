import { definePlugin } from '@ashlar/core';
import { erigon_getHeaderByNumber } from './erigon_getHeaderByNumber.js';

/** The one `erigon_` method Otterscan calls. */
export const erigonMethods = [erigon_getHeaderByNumber];

export const erigonPlugin = definePlugin({
  name: 'rpc:erigon',
  register: (ctx) => ctx.addMethods(...erigonMethods),
});
