import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { RpcMethodDefinition } from './types.js';

/** Method names (and aliases) to definitions; a name registered twice is an error naming both owners. */
export class MethodRegistry {
  private readonly methods = new Map<string, { def: RpcMethodDefinition; owner: string }>();
  private readonly disabled = new Set<string>();

  add(def: RpcMethodDefinition, owner = 'kernel'): void {
    for (const name of [def.name, ...(def.aliases ?? [])]) {
      const prev = this.methods.get(name);
      if (prev) {
        throw new AshlarError(
          ErrorCodes.METHOD_DUPLICATE,
          `RPC method "${name}" is registered by both plugin "${prev.owner}" and plugin "${owner}"`,
        );
      }
      this.methods.set(name, { def, owner });
    }
  }

  get(name: string): RpcMethodDefinition | undefined {
    const entry = this.methods.get(name);
    if (!entry) return undefined;
    const ns = name.slice(0, name.indexOf('_'));
    if (this.disabled.has(ns)) return undefined;
    return entry.def;
  }

  /** Turns a whole namespace off (e.g. `personal`), as if its methods did not exist. */
  disableNamespace(ns: string): void {
    this.disabled.add(ns);
  }

  names(): string[] {
    return [...this.methods.keys()].filter((n) => this.get(n) !== undefined).sort();
  }
}
