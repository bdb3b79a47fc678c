import type { AbstractSublevel } from 'abstract-level';
import type { StoredBlock } from '../chain/types.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { StoreOp } from '../storage/ChainStore.js';
import { SUBLEVELS } from '../storage/keys.js';
import type { StoragePort } from '../storage/StoragePort.js';
import type { Logger } from './options.js';

/** How a table's keys are stored: text (`utf8`, the default) or raw bytes (`view`). */
export type PluginKeyEncoding = 'utf8' | 'view';
/** How a table's values are stored: JSON (the default; no bigints), text, or raw bytes. */
export type PluginValueEncoding = 'json' | 'utf8' | 'view';

export interface PluginTableOptions {
  keyEncoding?: PluginKeyEncoding;
  valueEncoding?: PluginValueEncoding;
}

/** A write in a table's own key space: a block hook returns these. */
export type PluginWrite<K, V> = { type: 'put'; key: K; value: V } | { type: 'del'; key: K };

/** A key range of a table (its keys only, in byte order): as abstract-level's range options. */
export interface PluginRange<K> {
  gt?: K;
  gte?: K;
  lt?: K;
  lte?: K;
  reverse?: boolean;
  limit?: number;
}

/** Writes a block hook adds to the chain's batch. Return `[]` for nothing. */
export type BlockWrites<K, V> = (block: StoredBlock) => PluginWrite<K, V>[] | Promise<PluginWrite<K, V>[]>;

/**
 * One table of a plugin's own storage: a sublevel named under the plugin's name, fenced from the
 * chain's (keys are prefixed, ranges bounded, and the database itself is not reachable from here).
 */
export interface PluginStore<K = string, V = unknown> {
  /** `<plugin>/<table>`, for messages. */
  readonly name: string;
  get(key: K): Promise<V | undefined>;
  getMany(keys: readonly K[]): Promise<(V | undefined)[]>;
  /** Writes now, outside any block: not undone by `evm_revert` (use `onBlock` for that). */
  put(key: K, value: V): Promise<void>;
  del(key: K): Promise<void>;
  /** Several writes to this table in one atomic batch, now. */
  batch(writes: readonly PluginWrite<K, V>[]): Promise<void>;
  /** Entries in key order (`reverse` for newest-first), within `range`. */
  entries(range?: PluginRange<K>): Promise<[K, V][]>;
  keys(range?: PluginRange<K>): Promise<K[]>;
  /** Deletes the table's keys in `range` (all of them without one); never another table's. */
  clear(range?: PluginRange<K>): Promise<void>;
  /**
   * Writes to join each committed block's atomic batch: they land with the block or not at all
   * (a crash never leaves one without the other). Runs inside the chain's lock, before the
   * `block` event. A hook that throws never fails the block: the error is logged and this
   * hook's writes for that block are dropped.
   */
  onBlock(hook: BlockWrites<K, V>): void;
  /**
   * Writes that undo a block's `onBlock` writes when the head moves back past it (`evm_revert`,
   * `hardhat_reset`, any rollback): called once per removed block, newest first, and joined to
   * the batch that removes the blocks.
   */
  onRemove(hook: BlockWrites<K, V>): void;
}

const VIEW = { keyEncoding: 'view', valueEncoding: 'view' } as const;
const text = new TextEncoder();
const untext = new TextDecoder();

interface Codec<T> {
  encode(v: T): Uint8Array;
  decode(b: Uint8Array): T;
}
const bytes: Codec<Uint8Array> = { encode: (v) => v, decode: (b) => b };
const utf8: Codec<string> = { encode: (v) => text.encode(v), decode: (b) => untext.decode(b) };
const json: Codec<unknown> = {
  encode: (v) => text.encode(JSON.stringify(v)),
  decode: (b) => JSON.parse(untext.decode(b)),
};

/** Printable ASCII without space, `!` or `"`: what a sublevel name may hold. */
const NAME = /^[#-~]+$/;

// biome-ignore lint/suspicious/noExplicitAny: a sublevel of a database of any backend
type Sub = AbstractSublevel<any, any, Uint8Array, Uint8Array>;

/** Where block hooks go: the chain's commit and remove hooks (ChainService's, which this file need not import). */
export interface BlockHookTarget {
  onCommit(hook: (sb: StoredBlock) => Promise<StoreOp[]>): void;
  onRemove(hook: (sb: StoredBlock) => Promise<StoreOp[]>): void;
}

/** Opens table `table` of plugin `plugin`'s storage (`ctx.sublevel`). */
export function openPluginStore<K, V>(
  storage: StoragePort,
  chain: BlockHookTarget,
  logger: Logger,
  plugin: string,
  table: string,
  options: PluginTableOptions = {},
): PluginStore<K, V> {
  for (const [what, name] of [
    ['plugin name', plugin],
    ['table name', table],
  ])
    if (!NAME.test(name))
      throw new AshlarError(
        ErrorCodes.OPTIONS,
        `plugin storage: ${what} "${name}" must be printable ASCII without spaces, "!" or '"'`,
      );
  const sub: Sub = storage.db.sublevel([SUBLEVELS.plugins, plugin, table], VIEW);
  const k = (options.keyEncoding === 'view' ? bytes : utf8) as unknown as Codec<K>;
  const v = (options.valueEncoding === 'view'
    ? bytes
    : options.valueEncoding === 'utf8'
      ? utf8
      : json) as unknown as Codec<V>;
  const range = (r: PluginRange<K> = {}) => ({
    ...(r.gt !== undefined ? { gt: k.encode(r.gt) } : {}),
    ...(r.gte !== undefined ? { gte: k.encode(r.gte) } : {}),
    ...(r.lt !== undefined ? { lt: k.encode(r.lt) } : {}),
    ...(r.lte !== undefined ? { lte: k.encode(r.lte) } : {}),
    reverse: r.reverse === true,
    limit: r.limit ?? -1,
  });
  const toOp = (w: PluginWrite<K, V>): StoreOp =>
    w.type === 'put'
      ? { type: 'put', sublevel: sub, key: k.encode(w.key), value: v.encode(w.value) }
      : { type: 'del', sublevel: sub, key: k.encode(w.key) };
  const decoded = (x: Uint8Array | undefined) => (x === undefined ? undefined : v.decode(x));
  // A plugin's bug must not fail the chain's block (nor leave its state half-applied): logged, and
  // the plugin's writes for that block dropped.
  const hook =
    (kind: string, h: BlockWrites<K, V>) =>
    async (sb: StoredBlock): Promise<StoreOp[]> => {
      try {
        return (await h(sb)).map(toOp);
      } catch (e) {
        logger.error(
          `plugin storage ${plugin}/${table}: ${kind} failed for block ${sb.number}, its writes for that block are dropped: ${e instanceof Error ? e.message : e}`,
        );
        return [];
      }
    };
  // A plain object over closures: nothing on it leads to the sublevel's parent or the database.
  return Object.freeze({
    name: `${plugin}/${table}`,
    get: async (key: K) => decoded(await sub.get(k.encode(key))),
    getMany: async (keys: readonly K[]) => (await sub.getMany(keys.map((x) => k.encode(x)))).map(decoded),
    put: (key: K, value: V) => sub.put(k.encode(key), v.encode(value)),
    del: (key: K) => sub.del(k.encode(key)),
    batch: async (writes: readonly PluginWrite<K, V>[]) => {
      if (writes.length === 0) return;
      // biome-ignore lint/suspicious/noExplicitAny: abstract-level's batch typing does not model sublevel ops
      await storage.db.batch(writes.map(toOp) as any, VIEW);
    },
    entries: async (r?: PluginRange<K>) =>
      (await sub.iterator(range(r)).all()).map(([key, value]) => [k.decode(key), v.decode(value)] as [K, V]),
    keys: async (r?: PluginRange<K>) => (await sub.keys(range(r)).all()).map((key) => k.decode(key)),
    clear: (r?: PluginRange<K>) => sub.clear(range(r)),
    onBlock: (h: BlockWrites<K, V>) => chain.onCommit(hook('onBlock', h)),
    onRemove: (h: BlockWrites<K, V>) => chain.onRemove(hook('onRemove', h)),
  });
}
