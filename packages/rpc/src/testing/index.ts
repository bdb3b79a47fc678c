import { definePlugin } from '@ashlar/core';
import { testing_buildBlockV1 } from './testing_buildBlockV1.js';

/** geth's `testing_` namespace: build a block without importing it. */
export const testingMethods = [testing_buildBlockV1];

export const testingPlugin = definePlugin({
  name: 'rpc:testing',
  register: (ctx) => ctx.addMethods(...testingMethods),
});
