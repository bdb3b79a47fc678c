/**
 * Hardhat's `loadFixture`, for any EIP-1193 provider: the setup runs once, the chain is
 * snapshotted, and every later load reverts to that snapshot and takes a new one (snapshot
 * ids are one-shot: a revert consumes its id).
 */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export function snapshotFixture<T>(provider: Eip1193, setup: () => Promise<T>): () => Promise<T> {
  let state: { value: T; snapshot: unknown } | undefined;
  return async () => {
    if (!state) {
      const value = await setup();
      state = { value, snapshot: await provider.request({ method: 'evm_snapshot' }) };
      return value;
    }
    const reverted = await provider.request({ method: 'evm_revert', params: [state.snapshot] });
    if (reverted !== true) throw new Error(`evm_revert refused snapshot ${String(state.snapshot)}`);
    state.snapshot = await provider.request({ method: 'evm_snapshot' });
    return state.value;
  };
}
