import { BlockHeader } from '@ethereumjs/block';

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

/**
 * True when `base` is a BlockHeader (its prototype, not a subclass's) and headers have exactly
 * HEADER_FIELDS (checked once per prototype): then HeaderOf can make its copies.
 */
export function hasKnownShape(base: BlockHeader): boolean {
  const proto = Object.getPrototypeOf(base) as object;
  let known = knownShape.get(proto);
  if (known === undefined) {
    const keys = Object.keys(base);
    known =
      proto === BlockHeader.prototype &&
      keys.length === HEADER_FIELDS.length &&
      HEADER_FIELDS.every((k, i) => keys[i] === k);
    knownShape.set(proto, known);
  }
  return known;
}

/**
 * Makes a header's object: BlockHeader's prototype and fields, each set here in the
 * constructor's order. Set in a constructor, V8 gives the object room for all 26 fields inside
 * it from its first allocation (it sizes instances from the fields a constructor assigns). An
 * Object.create(prototype) filled afterwards had room for four: its out-of-object store was
 * re-allocated and copied about eight times per header, ~1 KiB of garbage per copy, two copies
 * per automined block (and its later field reads went through that store).
 */
function HeaderShape(
  this: Fields,
  common: unknown,
  keccakFunction: unknown,
  parentHash: unknown,
  uncleHash: unknown,
  coinbase: unknown,
  stateRoot: unknown,
  transactionsTrie: unknown,
  receiptTrie: unknown,
  logsBloom: unknown,
  difficulty: unknown,
  number: unknown,
  gasLimit: unknown,
  gasUsed: unknown,
  timestamp: unknown,
  extraData: unknown,
  mixHash: unknown,
  nonce: unknown,
  baseFeePerGas: unknown,
  withdrawalsRoot: unknown,
  blobGasUsed: unknown,
  excessBlobGas: unknown,
  parentBeaconBlockRoot: unknown,
  requestsHash: unknown,
  blockAccessListHash: unknown,
  slotNumber: unknown,
): void {
  this.cache = { hash: undefined };
  this.common = common;
  this.keccakFunction = keccakFunction;
  this.parentHash = parentHash;
  this.uncleHash = uncleHash;
  this.coinbase = coinbase;
  this.stateRoot = stateRoot;
  this.transactionsTrie = transactionsTrie;
  this.receiptTrie = receiptTrie;
  this.logsBloom = logsBloom;
  this.difficulty = difficulty;
  this.number = number;
  this.gasLimit = gasLimit;
  this.gasUsed = gasUsed;
  this.timestamp = timestamp;
  this.extraData = extraData;
  this.mixHash = mixHash;
  this.nonce = nonce;
  this.baseFeePerGas = baseFeePerGas;
  this.withdrawalsRoot = withdrawalsRoot;
  this.blobGasUsed = blobGasUsed;
  this.excessBlobGas = excessBlobGas;
  this.parentBeaconBlockRoot = parentBeaconBlockRoot;
  this.requestsHash = requestsHash;
  this.blockAccessListHash = blockAccessListHash;
  this.slotNumber = slotNumber;
}
HeaderShape.prototype = BlockHeader.prototype;

/** The constructor above, typed for `new`. */
export const HeaderOf = HeaderShape as unknown as new (...fields: unknown[]) => Fields;

/**
 * `base` with the defined values of `changes` in place of its own, no cached hash, frozen like a
 * constructed header. The fields are written by name in the constructor's order: the header then
 * has fast properties like a constructed one. Copied by computed key (Object.assign, a loop), an
 * object of 26 fields turns into a dictionary, and every later read of it is slower (hashing the
 * derived header took ~1.5x as long, deriving from a derived one ~3x).
 */
export function cloneHeader(base: BlockHeader, changes: Fields): BlockHeader {
  const b = base as unknown as Fields;
  if (!hasKnownShape(base)) {
    // A shape this does not know: copy whatever it has (slower, same result).
    const h = Object.create(Object.getPrototypeOf(base)) as Fields;
    Object.assign(h, b);
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) h[key] = value;
    h.cache = { hash: undefined };
    return Object.freeze(h) as unknown as BlockHeader;
  }
  const c = changes;
  const h = new HeaderOf(
    b.common,
    b.keccakFunction,
    c.parentHash ?? b.parentHash,
    c.uncleHash ?? b.uncleHash,
    c.coinbase ?? b.coinbase,
    c.stateRoot ?? b.stateRoot,
    c.transactionsTrie ?? b.transactionsTrie,
    c.receiptTrie ?? b.receiptTrie,
    c.logsBloom ?? b.logsBloom,
    c.difficulty ?? b.difficulty,
    c.number ?? b.number,
    c.gasLimit ?? b.gasLimit,
    c.gasUsed ?? b.gasUsed,
    c.timestamp ?? b.timestamp,
    c.extraData ?? b.extraData,
    c.mixHash ?? b.mixHash,
    c.nonce ?? b.nonce,
    c.baseFeePerGas ?? b.baseFeePerGas,
    c.withdrawalsRoot ?? b.withdrawalsRoot,
    c.blobGasUsed ?? b.blobGasUsed,
    c.excessBlobGas ?? b.excessBlobGas,
    c.parentBeaconBlockRoot ?? b.parentBeaconBlockRoot,
    c.requestsHash ?? b.requestsHash,
    c.blockAccessListHash ?? b.blockAccessListHash,
    c.slotNumber ?? b.slotNumber,
  );
  return Object.freeze(h) as unknown as BlockHeader;
}
