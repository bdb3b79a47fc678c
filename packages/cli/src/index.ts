// ashlar: the standalone node (bin) and `createNode`, a kernel with every built-in plugin.
export { createNode, type NodeOptions } from './createNode.js';
export { startServer, type RunningServer, type ServerOptions } from './server.js';
