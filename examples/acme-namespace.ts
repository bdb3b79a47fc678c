/**
 * An `acme_` JSON-RPC namespace reading chain state (docs/plugins.md, example 1): parameters
 * parsed by @ashlar/rpc's parsers, state read with core's typed reads (they take the chain's
 * lock), methods typed for tests by declaration merging into RpcMethods.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/acme-namespace.ts
 */
import { pathToFileURL } from 'node:url';
import {
  type BlockParam,
  type Hex,
  type Kernel,
  codeAt,
  createKernel,
  defineRpcMethod,
  definePlugin,
  methodCaller,
  readAccount,
  toData,
  toQuantity,
} from '@ashlar/core';
import { LATEST, address, blockTagOrHash, rpcPlugins, withDefault } from '@ashlar/rpc';

/** What acme_account answers: an account at a block, wire-encoded. */
export interface AcmeAccount {
  balance: Hex;
  nonce: Hex;
  /** Bytes of runtime code (0 for an account without code). */
  codeSize: number;
}

// Tests (and your app) call the methods typed: methodCaller(kernel).call('acme_account', [a]).
declare module '@ashlar/core' {
  interface RpcMethods {
    acme_account: { params: [account: Hex, block?: BlockParam]; result: AcmeAccount };
    acme_head: { params: []; result: { number: Hex; hash: Hex; transactions: number } };
  }
}

/** acme_account(address, block = latest): balance, nonce and code size of an account at a block. */
export const acme_account = defineRpcMethod({
  name: 'acme_account',
  params: [address('account'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: async (ctx, [account, block]): Promise<AcmeAccount> => {
    const chain = ctx.services.chain;
    const state = await readAccount(chain, account, block);
    const code = await codeAt(chain, account, block);
    return { balance: toQuantity(state.balance), nonce: toQuantity(state.nonce), codeSize: code.length };
  },
});

/** acme_head(): the head block's number, hash and transaction count. */
export const acme_head = defineRpcMethod({
  name: 'acme_head',
  params: [],
  handler: (ctx) => {
    const head = ctx.services.chain.head;
    return { number: toQuantity(head.number), hash: toData(head.hash), transactions: head.block.transactions.length };
  },
});

export const acmePlugin = definePlugin({
  name: 'acme',
  register: (ctx) => ctx.addMethods(acme_account, acme_head),
});

/** A kernel with the standard methods and the acme_ namespace. */
export function start(): Promise<Kernel> {
  return createKernel({ plugins: [...rpcPlugins(), acmePlugin] });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const kernel = await start();
  const rpc = methodCaller(kernel);
  const [from, to] = await rpc.call('eth_accounts');
  await rpc.call('eth_sendTransaction', [{ from, to, value: '0xde0b6b3a7640000' }]);
  console.log('acme_head', await rpc.call('acme_head'));
  console.log('acme_account', from, await rpc.call('acme_account', [from]));
  await kernel.close();
}
