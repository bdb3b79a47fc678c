// The one place tsyringe is imported: reflect-metadata must load first, and every kernel
// gets a child container of its own (never the global one), so chains in one process share nothing.
import 'reflect-metadata';
import { type DependencyContainer, instancePerContainerCachingFactory, container as rootContainer } from 'tsyringe';

export type { DependencyContainer } from 'tsyringe';

/** A typed DI token: a unique symbol that remembers the type it resolves to. */
export type Token<T> = symbol & { readonly __type?: T };

export function token<T>(name: string): Token<T> {
  return Symbol(name) as Token<T>;
}

export function createChildContainer(): DependencyContainer {
  return rootContainer.createChildContainer();
}

export function resolve<T>(c: DependencyContainer, tok: Token<T>): T {
  return c.resolve<T>(tok);
}

/** Registers a value under a typed token in this container only. */
export function provide<T>(c: DependencyContainer, tok: Token<T>, value: T): void {
  c.register<T>(tok, { useValue: value });
}

/**
 * Registers a service built by `factory` on first resolve, one instance per container (STYLE §6:
 * never a singleton lifecycle, which child containers would share). A later registration under
 * the same token replaces it for every resolve after.
 */
export function provideFactory<T>(c: DependencyContainer, tok: Token<T>, factory: (c: DependencyContainer) => T): void {
  c.register<T>(tok, { useFactory: instancePerContainerCachingFactory(factory) });
}
