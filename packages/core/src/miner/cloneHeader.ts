import type { BlockHeader } from '@ethereumjs/block';

/** The own fields of an @ethereumjs/block 10 BlockHeader, in the order its constructor sets them. */
const HEADER_FIELDS = [
  'cache',
  'common',
  'keccakFunction',
  'parentHash',
  'uncleHash',
  'coinbase',
  'stateRoot',
  'transactionsTrie',
  'receiptTrie',
  'logsBloom',
  'difficulty',
  'number',
  'gasLimit',
  'gasUsed',
  'timestamp',
  'extraData',
  'mixHash',
  'nonce',
  'baseFeePerGas',
  'withdrawalsRoot',
  'blobGasUsed',
  'excessBlobGas',
  'parentBeaconBlockRoot',
  'requestsHash',
  'blockAccessListHash',
  'slotNumber',
] as const;

type Fields = Record<string, unknown>;
const knownShape = new WeakMap<object, boolean>();

/** True when headers of this prototype have exactly HEADER_FIELDS (checked once per prototype). */
export function hasKnownShape(base: BlockHeader): boolean {
  const proto = Object.getPrototypeOf(base) as object;
  let known = knownShape.get(proto);
  if (known === undefined) {
    const keys = Object.keys(base);
    known = keys.length === HEADER_FIELDS.length && HEADER_FIELDS.every((k, i) => keys[i] === k);
    knownShape.set(proto, known);
  }
  return known;
}

/**
 * `base` with the defined values of `changes` in place of its own, no cached hash, frozen like a
 * constructed header. The fields are written by name in the constructor's order: the header then
 * has fast properties like a constructed one. Copied by computed key (Object.assign, a loop), an
 * object of 26 fields turns into a dictionary, and every later read of it is slower (hashing the
 * derived header took ~1.5x as long, deriving from a derived one ~3x).
 */
export function cloneHeader(base: BlockHeader, changes: Fields): BlockHeader {
  const h = Object.create(Object.getPrototypeOf(base)) as Fields;
  const b = base as unknown as Fields;
  if (!hasKnownShape(base)) {
    // A shape this does not know: copy whatever it has (slower, same result).
    Object.assign(h, b);
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) h[key] = value;
    h.cache = { hash: undefined };
    return Object.freeze(h) as unknown as BlockHeader;
  }
  const c = changes;
  h.cache = { hash: undefined };
  h.common = b.common;
  h.keccakFunction = b.keccakFunction;
  h.parentHash = c.parentHash ?? b.parentHash;
  h.uncleHash = c.uncleHash ?? b.uncleHash;
  h.coinbase = c.coinbase ?? b.coinbase;
  h.stateRoot = c.stateRoot ?? b.stateRoot;
  h.transactionsTrie = c.transactionsTrie ?? b.transactionsTrie;
  h.receiptTrie = c.receiptTrie ?? b.receiptTrie;
  h.logsBloom = c.logsBloom ?? b.logsBloom;
  h.difficulty = c.difficulty ?? b.difficulty;
  h.number = c.number ?? b.number;
  h.gasLimit = c.gasLimit ?? b.gasLimit;
  h.gasUsed = c.gasUsed ?? b.gasUsed;
  h.timestamp = c.timestamp ?? b.timestamp;
  h.extraData = c.extraData ?? b.extraData;
  h.mixHash = c.mixHash ?? b.mixHash;
  h.nonce = c.nonce ?? b.nonce;
  h.baseFeePerGas = c.baseFeePerGas ?? b.baseFeePerGas;
  h.withdrawalsRoot = c.withdrawalsRoot ?? b.withdrawalsRoot;
  h.blobGasUsed = c.blobGasUsed ?? b.blobGasUsed;
  h.excessBlobGas = c.excessBlobGas ?? b.excessBlobGas;
  h.parentBeaconBlockRoot = c.parentBeaconBlockRoot ?? b.parentBeaconBlockRoot;
  h.requestsHash = c.requestsHash ?? b.requestsHash;
  h.blockAccessListHash = c.blockAccessListHash ?? b.blockAccessListHash;
  h.slotNumber = c.slotNumber ?? b.slotNumber;
  return Object.freeze(h) as unknown as BlockHeader;
}
