import { AshlarError, ErrorCodes, applyStateOverrides, precompileTable } from '@ashlar/core';
import type { VM } from '@ethereumjs/vm';
import type { StateOverrideParam } from '../params/index.js';

type PrecompileMap = Map<string, unknown>;

const unprefixed = (a: string): string => a.replace(/^0x/, '').toLowerCase();

/**
 * Separates the two roles @ethereumjs's precompile table has: which addresses run a precompile
 * (changed by overrides and moves) and which addresses a transaction starts with warm (EIP-2929:
 * the fork's precompiles, whatever the overrides did, as geth's StateDB.Prepare).
 */
export function splitPrecompileTables(vm: VM, warm: PrecompileMap): void {
  const evm = vm.evm as unknown as {
    getPrecompile(address: { bytes: Uint8Array } | string): unknown;
  };
  const running = precompileTable(vm.evm);
  Object.defineProperty(evm, 'precompiles', { get: () => warm, configurable: true });
  evm.getPrecompile = (address) =>
    running.get(
      typeof address === 'string' ? unprefixed(address).padStart(40, '0') : Buffer.from(address.bytes).toString('hex'),
    );
}

/**
 * Applies a block's state overrides before its calls run: balances, nonces, code, storage, and
 * precompiles moved to other addresses (the EVM's precompile table is this VM's own). As in
 * geth, an overridden precompile address stops being a precompile, and a move to an address
 * the same override set touches is refused.
 */
export async function applySimOverrides(
  vm: VM,
  overrides: StateOverrideParam | undefined,
  basePrecompiles: PrecompileMap,
): Promise<void> {
  // Every block starts from the base block's precompiles; its overrides then change them.
  const precompiles: PrecompileMap = precompileTable(vm.evm);
  precompiles.clear();
  for (const [k, v] of basePrecompiles) precompiles.set(k, v);
  if (!overrides) return;
  const base = new Map(precompiles);
  for (const [addr, o] of overrides) {
    const key = unprefixed(addr);
    const fn = base.get(key);
    if (o.movePrecompileToAddress !== undefined) {
      const to = o.movePrecompileToAddress.toString().toLowerCase();
      if (fn === undefined) throw new AshlarError(ErrorCodes.EXECUTION, `account ${addr} is not a precompile`);
      if (overrides.has(to))
        throw new AshlarError(ErrorCodes.SIM_MOVE_PRECOMPILE_SELF, `account ${to} is already overridden`);
      precompiles.set(unprefixed(to), fn);
    }
    // Any override of a precompile's address replaces the precompile (its code, if given, runs).
    if (fn !== undefined && precompiles.get(key) === fn) precompiles.delete(key);
  }

  await applyStateOverrides(vm.stateManager, overrides);
}
