import { type Token, token } from '../di/container.js';

/** A contract whose ABI someone knows (verified in the explorer, found in a build folder). */
export interface KnownContract {
  name: string;
  abi: readonly unknown[];
  /**
   * `Boom.sol:11`: the Solidity line of the statement that reverted, when a build's source map is
   * known; `pcs` are the contract's last pcs, newest (the REVERT) first.
   */
  sourceLine?: (pcs: readonly number[]) => string | undefined;
}

/** Answers the contract known at an address (lowercase or checksummed hex), or undefined. */
export type AbiResolver = (address: string) => KnownContract | undefined;

/**
 * Where core asks for the name and ABI of a contract, to name the custom error it reverted with.
 * Core knows no ABIs itself: plugins that do (the explorer's verified contracts) add a resolver;
 * with none, revert messages keep the raw selector.
 */
export class KnownContracts {
  private readonly resolvers: AbiResolver[] = [];

  /** Adds a resolver, asked after those added before; returns its removal. */
  add(resolver: AbiResolver): () => void {
    this.resolvers.push(resolver);
    return () => {
      const i = this.resolvers.indexOf(resolver);
      if (i >= 0) this.resolvers.splice(i, 1);
    };
  }

  /** Whether no resolver is registered (then every lookup answers undefined). */
  get isEmpty(): boolean {
    return this.resolvers.length === 0;
  }

  lookup(address: string): KnownContract | undefined {
    for (const resolve of this.resolvers) {
      try {
        const found = resolve(address);
        if (found) return found;
      } catch {
        // A failing resolver only loses the name; the revert is answered either way.
      }
    }
    return undefined;
  }
}

export const KnownContractsToken: Token<KnownContracts> = token<KnownContracts>('ashlar:known-contracts');
