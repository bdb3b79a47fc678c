// A node on LevelDB: stop it, start it again on the same directory, and the chain is as it was.
import { pathToFileURL } from 'node:url';
import { createNode, startServer } from 'ashlar';

export async function start(dir: string, port = 0) {
  const kernel = await createNode({ db: dir });
  const server = await startServer(kernel, { port });
  return {
    url: server.url,
    kernel,
    async close() {
      await server.close();
      await kernel.close(); // flushes nothing late: every block was written in one batch when mined
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url, kernel } = await start(process.argv[2] ?? './.ashlar/example-chain', 8545);
  console.log(`persistent node at block ${kernel.chain.head.number} on ${url}`);
}
