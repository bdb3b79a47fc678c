import { type DependencyContainer, type Token, provideFactory } from '../di/container.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';

/**
 * Builds a service. `previous` builds what was registered under the token before (the kernel's
 * default, or an earlier plugin's replacement), so a factory can wrap it instead of rebuilding it;
 * it throws when nothing was.
 */
export type ServiceFactory<T> = (c: DependencyContainer, previous: () => T) => T;

interface Entry {
  /** Builds the service with its `previous` chain (not cached: the container caches). */
  build: (c: DependencyContainer) => unknown;
  /** Who registered this factory: `kernel` or a plugin's name. */
  owner: string;
  /** Set once the container built it; who was registering then (or `kernel`). */
  builtDuring?: string;
}

/**
 * The kernel's services by factory, under typed tokens, in the kernel's own child container.
 * Nothing is built before something resolves it, so a plugin may replace a service in its
 * `register` as long as no plugin before it has used that service: replacing one that is already
 * built would leave two instances in use, so it fails, naming who built it.
 */
export class ServiceProviders {
  private readonly entries = new Map<symbol, Entry>();
  /** The plugin registering right now (`kernel` outside any plugin's register). */
  current = 'kernel';

  constructor(private readonly container: DependencyContainer) {}

  provide<T>(tok: Token<T>, factory: ServiceFactory<T>, owner: string = this.current): void {
    const before = this.entries.get(tok);
    const name = tok.description ?? String(tok);
    if (before?.builtDuring !== undefined) {
      const by = before.builtDuring === 'kernel' ? 'the kernel' : `plugin "${before.builtDuring}"`;
      throw new AshlarError(
        ErrorCodes.PLUGIN_SERVICE_IN_USE,
        `plugin "${owner}" replaces service "${name}", which ${by} already uses: mount "${owner}" before the plugins that use "${name}"`,
      );
    }
    if (!before && this.container.isRegistered(tok)) {
      // A value the kernel set before any plugin ran (options, logger, storage, events, chain):
      // everything already holds it, so a second one would split the kernel in two.
      throw new AshlarError(
        ErrorCodes.PLUGIN_SERVICE_IN_USE,
        `plugin "${owner}" replaces service "${name}", which the kernel opened before any plugin: set it with createKernel's options instead`,
      );
    }
    const previous = before?.build;
    const entry: Entry = {
      owner,
      build: (c) =>
        factory(c, () => {
          if (!previous) throw new Error(`service "${name}" has no earlier provider to build`);
          return previous(c) as T;
        }),
    };
    this.entries.set(tok, entry);
    provideFactory(this.container, tok, (c) => {
      entry.builtDuring = this.current;
      return entry.build(c) as T;
    });
  }

  /** Who registered the factory in use under `tok` (`kernel`, a plugin's name), if any. */
  ownerOf(tok: Token<unknown>): string | undefined {
    return this.entries.get(tok)?.owner;
  }
}
