/**
 * One settled promise, shared: what a write done synchronously answers where the interface is
 * promise-returning (ChainStateManager's putAccount and checkpoint, its commit inside a block, and
 * the journal methods that hand those back). A caller that gets this very object knows the work is
 * done: awaiting it would only yield to the microtasks queued meanwhile, a suspension and a turn of
 * the queue per call, about a dozen per automined value transfer.
 */
export const SETTLED: Promise<void> = Promise.resolve();
