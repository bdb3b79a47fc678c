import { decodeDump, defineRpcMethod, dumpNodeState, encodeDump, loadNodeState } from '@ashlar/core';
import { makeParser } from '../params/index.js';

/**
 * Every account of the head state (balance, nonce, code, storage) as Anvil answers it: the
 * JSON gzip'd, hex-encoded. Accounts whose address the node never saw are keyed by trie key.
 */
export const anvil_dumpState = defineRpcMethod({
  name: 'anvil_dumpState',
  // Hardhat has none; viem's test client in hardhat mode asks for this spelling
  aliases: ['hardhat_dumpState'],
  params: [],
  handler: async (ctx) => encodeDump(await dumpNodeState(ctx.services)),
});

/** Writes a dump (anvil_dumpState's hex, or the JSON object) into the head state; answers true. */
export const anvil_loadState = defineRpcMethod({
  name: 'anvil_loadState',
  aliases: ['hardhat_loadState'],
  params: [makeParser('state', (v) => decodeDump(v))],
  handler: async (ctx, [dump]) => {
    await loadNodeState(ctx.services, dump);
    return true;
  },
});
