import { type NodeOptions, createNode, startServer } from 'ashlar';

export interface TestNode {
  url: string;
  /** The same node over WebSocket (subscriptions). */
  wsUrl: string;
  kernel: Awaited<ReturnType<typeof createNode>>;
  close(): Promise<void>;
}

/** A real node over HTTP on a free loopback port: what end-to-end tests talk to. */
export async function startNode(
  options: NodeOptions & { automine?: boolean; blockTime?: number } = {},
): Promise<TestNode> {
  const { automine, blockTime, ...rest } = options;
  const kernel = await createNode({
    ...rest,
    mining: { automine: automine ?? true, blockTime: blockTime ?? 0, ...rest.mining },
  });
  const server = await startServer(kernel, { port: 0 });
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    kernel,
    async close() {
      await server.close();
      await kernel.close();
    },
  };
}
