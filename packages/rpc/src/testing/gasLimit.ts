/** geth's params: the gas limit moves by at most parent/1024 per block and stays above 5000. */
const BOUND_DIVISOR = 1024n;
const MIN_GAS_LIMIT = 5000n;

/** geth's core.CalcGasLimit: one step from the parent's gas limit towards the desired one. */
export function calcGasLimit(parent: bigint, desired: bigint): bigint {
  const delta = parent / BOUND_DIVISOR - 1n;
  const want = desired < MIN_GAS_LIMIT ? MIN_GAS_LIMIT : desired;
  if (parent < want) {
    const up = parent + delta;
    return up > want ? want : up;
  }
  if (parent > want) {
    const down = parent - delta;
    return down < want ? want : down;
  }
  return parent;
}
