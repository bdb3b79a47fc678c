import { FeeMarket1559Tx, LegacyTx, type TypedTransaction } from '@ethereumjs/tx';

/**
 * The own fields of @ethereumjs/tx 10's FeeMarket1559Tx and LegacyTx, in the order their
 * constructors set them (mempool/fastTxFromRaw builds received transactions in this order too),
 * followed by the `getSenderAddress` a call transaction and a received one are both given.
 */
/** The fields both constructors set first, in this order. */
const BASE_FIELDS = [
  'type',
  'cache',
  'activeCapabilities',
  'common',
  'txOptions',
  'to',
  'nonce',
  'gasLimit',
  'value',
  'data',
  'v',
  'r',
  's',
];
const FEE_MARKET_FIELDS = [
  ...BASE_FIELDS,
  'chainId',
  'accessList',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'getSenderAddress',
].join();
const LEGACY_FIELDS = [...BASE_FIELDS, 'gasPrice', 'keccakFunction', 'getSenderAddress'].join();

type Fields = Record<string, unknown>;

/** An empty access list whose array holds objects, like the empty lists RLP decoding gives received transactions. */
const EMPTY_ACCESS_LIST: unknown[] = [[]];
EMPTY_ACCESS_LIST.pop();

/** Call transactions made by shapeCallTx (their fields known in order): copies of them skip the check. */
const shaped = new WeakSet<object>();

/**
 * An unsigned call transaction `tx` (made by createTx, given a `getSenderAddress`) remade in the
 * shape a received (mined) transaction has, frozen; `tx` itself when it is not a legacy or
 * EIP-1559 transaction with exactly the fields above.
 *
 * Why: runTx and the transaction's methods are optimised for the mined transactions first; a call
 * transaction of another shape (the constructor's, or one whose fields were written again after
 * a copy, which V8 records on the shared shape) made them deoptimise and compile again during a
 * node's first eth_calls (~200-300 ms of compiling while those calls ran slow). So every field is
 * written once, by name, in the constructor's order; the cache gets the fields a received
 * transaction's has (its hash and sender key, left unset: an unsigned transaction has neither);
 * an empty access list is an array of the kind decoding gives.
 */
export function shapeCallTx(tx: TypedTransaction): TypedTransaction {
  const proto = Object.getPrototypeOf(tx) as object;
  const fields =
    proto === FeeMarket1559Tx.prototype ? FEE_MARKET_FIELDS : proto === LegacyTx.prototype ? LEGACY_FIELDS : '';
  if (fields === '' || Object.keys(tx).join() !== fields) return tx;
  const copy = copyWithData(tx, (tx as { data: Uint8Array }).data);
  shaped.add(copy);
  return copy;
}

/**
 * A copy of call transaction `tx` with other calldata: the same fields (the sender method too)
 * and a fresh cache, since the data gas and hash are derived from the data; frozen.
 */
export function callTxWithData(tx: TypedTransaction, data: Uint8Array): TypedTransaction {
  if (shaped.has(tx)) return copyWithData(tx, data);
  const copy = Object.assign(Object.create(Object.getPrototypeOf(tx) as object), tx) as TypedTransaction;
  (copy as { data: Uint8Array }).data = data;
  (copy as unknown as { cache: object }).cache = {};
  Object.freeze(copy);
  return copy;
}

/** `tx` (of known fields) copied field by field, in order, with `data`. */
function copyWithData(tx: TypedTransaction, data: Uint8Array): TypedTransaction {
  const t = tx as unknown as Fields;
  const c = Object.create(Object.getPrototypeOf(tx) as object) as Fields;
  c.type = t.type;
  c.cache = receivedCache();
  c.activeCapabilities = t.activeCapabilities;
  c.common = t.common;
  c.txOptions = t.txOptions;
  c.to = t.to;
  c.nonce = t.nonce;
  c.gasLimit = t.gasLimit;
  c.value = t.value;
  c.data = data;
  c.v = t.v;
  c.r = t.r;
  c.s = t.s;
  if (t.type === 2) {
    c.chainId = t.chainId;
    c.accessList = accessList(t.accessList);
    c.maxFeePerGas = t.maxFeePerGas;
    c.maxPriorityFeePerGas = t.maxPriorityFeePerGas;
  } else {
    c.gasPrice = t.gasPrice;
    c.keccakFunction = t.keccakFunction;
  }
  c.getSenderAddress = t.getSenderAddress;
  return Object.freeze(c) as unknown as TypedTransaction;
}

/** A cache with the fields a received transaction's has before runTx adds its data fee, unset. */
function receivedCache(): Fields {
  const cache: Fields = {};
  cache.hash = undefined;
  cache.senderPubKey = undefined;
  return cache;
}

function accessList(list: unknown): unknown {
  return Array.isArray(list) && list.length === 0 ? EMPTY_ACCESS_LIST : list;
}
