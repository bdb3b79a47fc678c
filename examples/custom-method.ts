// A plugin that adds your own JSON-RPC method to a node: declared params are parsed (and
// rejected with -32602 naming the parameter) before the handler runs.
import { pathToFileURL } from 'node:url';
import { balanceAt, defineRpcMethod, definePlugin } from '@ashlar/core';
import { address } from '@ashlar/rpc';
import { createNode, startServer } from 'ashlar';

/** `myapp_balanceInEther(address)`: the latest balance of an account, in ether, as a string. */
export const balanceInEther = defineRpcMethod({
  name: 'myapp_balanceInEther',
  params: [address('account')],
  handler: async (ctx, [account]) => {
    const wei = await balanceAt(ctx.services.chain, account);
    const whole = wei / 10n ** 18n;
    const frac = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
    return frac ? `${whole}.${frac}` : whole.toString();
  },
});

export const myAppPlugin = definePlugin({
  name: 'myapp',
  register: (ctx) => ctx.addMethods(balanceInEther),
});

export async function start(port = 0) {
  const kernel = await createNode({ plugins: [myAppPlugin] });
  const server = await startServer(kernel, { port });
  return {
    url: server.url,
    kernel,
    async close() {
      await server.close();
      await kernel.close();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await start(8545);
  console.log(`node with myapp_balanceInEther on ${url}`);
}
