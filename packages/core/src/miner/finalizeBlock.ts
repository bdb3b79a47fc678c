import { Block, type BlockHeader, createBlockHeader, genRequestsRoot } from '@ethereumjs/block';
import { type Common, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import {
  Address,
  CLRequest,
  CLRequestType,
  bigIntToAddressBytes,
  bytesToBigInt,
  bytesToHex,
  bytesToUnprefixedHex,
  equalsBytes,
  hexToBytes,
  setLengthLeft,
  type Withdrawal,
} from '@ethereumjs/util';
import { Bloom, type BlockBuilder, type RunTxResult, type VM } from '@ethereumjs/vm';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { depositContractAddress, storageDiffLevels } from '../evm/internals.js';
import { orderedTrieRoot } from '../trie/orderedTrieRoot.js';
import { accountNow } from '../chain/ChainStateManager.js';
import { minimalBytes } from '../storage/unpaddedBytes.js';
import { type SealedFields, deriveHeader } from './deriveHeader.js';

/** What finalize needs of the builder beyond its public API (see BuilderInternals in assembleBlock.ts). */
interface BuilderState {
  transactions: import('@ethereumjs/tx').TypedTransaction[];
  transactionResults: RunTxResult[];
  gasUsed: bigint;
  blobGasUsed: bigint;
  withdrawals?: Withdrawal[];
  checkpointed: boolean;
  processWithdrawals(): Promise<void>;
}

// EIP-7002 / EIP-7251 request contracts keep their queue in the same four slots.
const EXCESS_SLOT = 0n;
const COUNT_SLOT = 1n;
const HEAD_SLOT = 2n;
const TAIL_SLOT = 3n;
const slotKey = (n: bigint) => setLengthLeft(Uint8Array.of(Number(n)), 32);

/**
 * Storage roots at which a request contract's queue was seen idle. Content-addressed: the same
 * root holds the same slots, whatever block or revert led there, so one account read replaces
 * four storage reads per contract per block.
 */
const idleRoots = new WeakMap<VM, Map<string, Uint8Array>>();
/** Queues found idle by reading their slots in the block being finalized, rooted after the flush. */
const idleUnrooted = new WeakMap<VM, string[]>();

/** A request contract's address and its key in the storage cache, per VM, hardfork and parameter. */
interface QueueContract {
  address: Address;
  cacheKey: string;
}
/** Per VM: the request contracts of the hardfork last asked about, by parameter name. */
const queueContracts = new WeakMap<VM, { hardfork: string; byParam: Map<string, QueueContract> }>();

/** Looked up once per hardfork, not per block (common.param and the hex key cost a few µs; a key string per ask ~1-2). */
function queueContract(vm: VM, param: string): QueueContract {
  const hardfork = vm.common.hardfork();
  let known = queueContracts.get(vm);
  if (known === undefined || known.hardfork !== hardfork) {
    known = { hardfork, byParam: new Map() };
    queueContracts.set(vm, known);
  }
  let c = known.byParam.get(param);
  if (!c) {
    const address = new Address(bigIntToAddressBytes(vm.common.param(param)));
    c = { address, cacheKey: bytesToUnprefixedHex(address.bytes) };
    known.byParam.set(param, c);
  }
  return c;
}

function queueAddress(vm: VM, param: string): Address {
  return queueContract(vm, param).address;
}

/**
 * queueIsIdle answered without a promise: true when the queue was seen idle at the root its
 * cached account holds and no write to its storage waits in the cache; undefined when that
 * cannot be told without a read (then queueIsIdle reads, and remembers).
 */
function queueIsIdleNow(vm: VM, param: string): true | undefined {
  const seen = idleRoots.get(vm)?.get(param);
  if (seen === undefined) return undefined;
  const contract = queueContract(vm, param);
  const account = accountNow(vm.stateManager, contract.address);
  return account && equalsBytes(seen, account.storageRoot) && !hasCachedStorage(vm, contract.cacheKey)
    ? true
    : undefined;
}

async function queueIsIdle(vm: VM, param: string): Promise<boolean> {
  const contract = queueContract(vm, param);
  const a = contract.address;
  const seen = idleRoots.get(vm)?.get(param);
  if (seen) {
    // Only trust the account's root when no write to its storage is waiting in the cache.
    const cached = accountNow(vm.stateManager, a);
    const account = cached === undefined ? await vm.stateManager.getAccount(a) : (cached ?? undefined);
    if (account && equalsBytes(seen, account.storageRoot) && !hasCachedStorage(vm, contract.cacheKey)) return true;
  }
  for (const slot of [EXCESS_SLOT, COUNT_SLOT, HEAD_SLOT, TAIL_SLOT]) {
    if (bytesToBigInt(await vm.stateManager.getStorage(a, slotKey(slot))) !== 0n) return false;
  }
  const list = idleUnrooted.get(vm) ?? [];
  list.push(param);
  idleUnrooted.set(vm, list);
  return true;
}

/**
 * True when the state manager's storage cache holds writes to the account whose cache key is
 * `key` (its unprefixed address hex) not yet in its trie (the
 * account's storageRoot is then stale). @ethereumjs/statemanager 10 keeps them, per checkpoint
 * level, in StorageCache._diffCache keyed by unprefixed address hex.
 */
function hasCachedStorage(vm: VM, key: string): boolean {
  const diffs = storageDiffLevels(vm.stateManager);
  // Without a readable cache, be safe: the caller reads the slots.
  if (!diffs) return true;
  for (let i = 0; i < diffs.length; i++) if (diffs[i].has(key)) return true;
  return false;
}

/** After the state root is computed (the caches flushed), the idle queues' roots are final. */
async function rememberIdleRoots(vm: VM): Promise<void> {
  const list = idleUnrooted.get(vm);
  if (!list) return;
  idleUnrooted.delete(vm);
  let known = idleRoots.get(vm);
  if (!known) {
    known = new Map();
    idleRoots.set(vm, known);
  }
  for (const param of list) {
    const account = await vm.stateManager.getAccount(queueAddress(vm, param));
    if (account) known.set(param, account.storageRoot);
  }
}

/**
 * True when this block's EIP-7685 requests are all empty and their system calls would change
 * no state: no deposit log, and both request contracts with zero excess, zero count and an
 * empty queue at 0/0 (the system call then writes back the values it read). On a dev chain that
 * is every block until someone queues a request; the EVM calls are then skipped (two system
 * calls were ~half of an empty block's cost).
 */
export async function requestsAreIdle(vm: VM, common: Common, results: RunTxResult[]): Promise<boolean> {
  if (!common.isActivatedEIP(7685)) return true;
  if (common.isActivatedEIP(8282) || hasDepositLog(common, results)) return false;
  if (common.isActivatedEIP(7002) && !(await queueIsIdle(vm, 'withdrawalRequestPredeployAddress'))) {
    return false;
  }
  if (common.isActivatedEIP(7251) && !(await queueIsIdle(vm, 'consolidationRequestPredeployAddress'))) {
    return false;
  }
  return true;
}

/**
 * requestsAreIdle without a promise when the caches can tell (every block of a dev chain whose
 * queues were seen idle): true or false as it would answer, undefined when a queue's slots
 * have to be read (then await requestsAreIdle, which reads nothing this has changed). An
 * async call and two awaited ones per block were ~1 KB of promises and generator objects.
 */
export function requestsAreIdleNow(vm: VM, common: Common, results: RunTxResult[]): boolean | undefined {
  if (!common.isActivatedEIP(7685)) return true;
  if (common.isActivatedEIP(8282) || hasDepositLog(common, results)) return false;
  if (common.isActivatedEIP(7002) && queueIsIdleNow(vm, 'withdrawalRequestPredeployAddress') === undefined)
    return undefined;
  if (common.isActivatedEIP(7251) && queueIsIdleNow(vm, 'consolidationRequestPredeployAddress') === undefined)
    return undefined;
  return true;
}

/** Whether a log of `results` was emitted by the chain's deposit contract (EIP-6110 requests). */
export function hasDepositLog(common: Common, results: RunTxResult[]): boolean {
  const deposit = (depositContractAddress(common) ?? Mainnet.depositContractAddress ?? '').toLowerCase();
  const bits = depositBits(deposit);
  for (let i = 0; i < results.length; i++) {
    // A receipt's bloom holds the address of each of its logs: without the deposit address's
    // bits, none of its logs is the deposit contract's. The logs themselves are read only
    // when it may be (mayHoldAddress), in a function of their own: a transfer's logs list is
    // empty and a token transfer's is not, two hidden classes of array, and reading them here
    // threw this function's optimised code away on a fresh node's first token transfer.
    if (mayHoldAddress(results[i].receipt.bitvector, bits) && hasLogOf(results[i], deposit)) return true;
  }
  return false;
}

/** Where an address sets its three bits in a 256-byte logs bloom: byte index and mask of each. */
interface BloomBits {
  hex: string;
  /** Three (byte index, mask) pairs; undefined: the address is no 20-byte hex, always scan the logs. */
  at?: Int32Array;
}
let lastBits: BloomBits = { hex: '', at: undefined };

/** The bloom bits of the deposit contract's address (as @ethereumjs/vm's Bloom.add sets them), computed once per address. */
function depositBits(hex: string): BloomBits {
  if (lastBits.hex === hex) return lastBits;
  let at: Int32Array | undefined;
  if (/^0x[0-9a-f]{40}$/.test(hex)) {
    const bloom = new Bloom();
    bloom.add(hexToBytes(hex as `0x${string}`));
    const pairs: number[] = [];
    bloom.bitvector.forEach((byte, i) => {
      if (byte !== 0) pairs.push(i, byte);
    });
    // Two bits in one byte make fewer pairs: repeat the last (testing it twice changes nothing).
    while (pairs.length < 6) pairs.push(pairs[pairs.length - 2], pairs[pairs.length - 1]);
    at = Int32Array.from(pairs);
  }
  lastBits = { hex, at };
  return lastBits;
}

/**
 * False only when `bloom` (a receipt's) lacks a bit of the address (then no log of it is the
 * address's). The three bits are tested together, without a loop or a short cut: a transfer's
 * empty bloom fails the first test, a token transfer's may pass it, and code only ever run on
 * the first would meet operations without feedback on the second (a deoptimisation).
 */
function mayHoldAddress(bloom: Uint8Array | undefined, bits: BloomBits): boolean {
  const a = bits.at;
  if (a === undefined || bloom === undefined || bloom.length !== 256) return true;
  const missing = ((bloom[a[0]] & a[1]) ^ a[1]) | ((bloom[a[2]] & a[3]) ^ a[3]) | ((bloom[a[4]] & a[5]) ^ a[5]);
  return missing === 0;
}

/** Whether a log of `r` was emitted by the address `hex` (lowercase 0x hex). */
function hasLogOf(r: RunTxResult, hex: string): boolean {
  for (const log of r.receipt.logs) if (bytesToHex(log[0]) === hex) return true;
  return false;
}

const STATUS_OK = Uint8Array.of(1);
const STATUS_FAILED = new Uint8Array(0);

/**
 * encodeReceipt of @ethereumjs/vm 10.1.3 (the consensus encoding the receipt trie holds): the same
 * list — post-state root or status, cumulative gas as bigIntToBytes makes it, bloom, logs — and
 * the same type prefix, without the hex round trips of bigIntToBytes, hexToBytes('0x01') and
 * intToBytes (~3 µs a receipt). A test compares the two.
 */
export function receiptEncoding(receipt: RunTxResult['receipt'], txType: number): Uint8Array {
  const r = receipt as RunTxResult['receipt'] & { stateRoot?: Uint8Array; status?: 0 | 1 };
  const encoded = RLP.encode([
    r.stateRoot ?? (r.status === 0 ? STATUS_FAILED : STATUS_OK),
    minimalBytes(r.cumulativeBlockGasUsed),
    r.bitvector,
    r.logs,
  ] as Uint8Array[]);
  if (txType === 0) return encoded;
  const out = new Uint8Array(encoded.length + 1);
  out[0] = txType;
  out.set(encoded, 1);
  return out;
}

/** EIP-7685 requests root of a block with no requests, by the request types active (deposit, withdrawal, consolidation). */
const idleRequestsRoots = new Map<string, Uint8Array>();

/** The EIP-7685 requests hash of a block with no requests: the same for every idle block of a fork, computed once per set of request types. */
function idleRequestsHash(common: Common): Uint8Array {
  const kinds = `${common.isActivatedEIP(6110)}${common.isActivatedEIP(7002)}${common.isActivatedEIP(7251)}`;
  let requestsHash = idleRequestsRoots.get(kinds);
  if (requestsHash === undefined) {
    const empty: CLRequest<CLRequestType>[] = [];
    if (common.isActivatedEIP(6110)) empty.push(new CLRequest(CLRequestType.Deposit, new Uint8Array()));
    if (common.isActivatedEIP(7002)) empty.push(new CLRequest(CLRequestType.Withdrawal, new Uint8Array()));
    if (common.isActivatedEIP(7251)) empty.push(new CLRequest(CLRequestType.Consolidation, new Uint8Array()));
    requestsHash = genRequestsRoot(empty, common.customCrypto.sha256 ?? sha256);
    idleRequestsRoots.set(kinds, requestsHash);
  }
  return requestsHash;
}

/** The withdrawals' RLP encodings, in order (a loop, not map() with a closure per block). */
function withdrawalEncodings(withdrawals: readonly Withdrawal[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < withdrawals.length; i++) out.push(RLP.encode(withdrawals[i].raw()));
  return out;
}

/**
 * BlockBuilder.logsBloom(): the OR of the transactions' blooms, leaving out those of transactions
 * without logs (all zero bits). The builder ORs each one in, a 256-step loop per transaction that
 * a fresh node runs in baseline code for its first hundreds of blocks, for the zero bloom of
 * every value transfer.
 */
function blockLogsBloom(results: readonly RunTxResult[]): Uint8Array {
  const out = new Uint8Array(256);
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    if (r.execResult.logs !== undefined && r.execResult.logs.length === 0) continue;
    const bits = r.bloom.bitvector;
    for (let j = 0; j < 256; j++) out[j] |= bits[j];
  }
  return out;
}

/** The receipt trie's values: each transaction's receipt as encodeReceipt makes it. */
function receiptEncodings(b: BuilderState): Uint8Array[] {
  const results = b.transactionResults;
  const out: Uint8Array[] = [];
  for (let i = 0; i < results.length; i++) out.push(receiptEncoding(results[i].receipt, b.transactions[i].type));
  return out;
}

/**
 * BlockBuilder.build() for a block whose requests are idle: the same header fields, computed
 * the same way, without running the request system calls. The tries are rooted from the
 * transactions' own encodings (`txRaws`, as received) without an @ethereumjs/mpt per trie, and
 * the block keeps the transaction objects it was built from (createBlock would re-create each
 * one, losing its cached hash and sender).
 */
export async function finalizeIdleBlock(
  vm: VM,
  builder: BlockBuilder,
  headerData: Record<string, unknown>,
  blockOpts: Parameters<typeof createBlockHeader>[1],
  txRaws: readonly Uint8Array[],
  /** The header the transactions ran under (same data, gas used 0): the final one derives from it. */
  execHeader?: BlockHeader,
): Promise<Block> {
  const b = builder as unknown as BuilderState;
  const common = vm.common;
  const keccak = common.customCrypto.keccak256 ?? keccak_256;
  // An empty list (every dev block's) leaves processWithdrawals nothing to do but its promise.
  if (b.withdrawals !== undefined && b.withdrawals.length > 0) await b.processWithdrawals();
  const transactionsTrie = orderedTrieRoot(txRaws, keccak);
  const withdrawalsRoot = b.withdrawals ? orderedTrieRoot(withdrawalEncodings(b.withdrawals), keccak) : undefined;
  const receiptTrie = orderedTrieRoot(receiptEncodings(b), keccak);
  const logsBloom = blockLogsBloom(b.transactionResults);
  const requestsHash = common.isActivatedEIP(7685) ? idleRequestsHash(common) : undefined;
  const stateRoot = await vm.stateManager.getStateRoot();
  if (idleUnrooted.has(vm)) await rememberIdleRoots(vm);
  const sealed: SealedFields = {
    stateRoot,
    transactionsTrie,
    withdrawalsRoot,
    receiptTrie,
    logsBloom,
    gasUsed: b.gasUsed,
    blobGasUsed: common.isActivatedEIP(4844) ? b.blobGasUsed : undefined,
    requestsHash,
  };
  const header = execHeader
    ? deriveHeader(execHeader, sealed)
    : createBlockHeader({ ...headerData, ...sealed }, blockOpts);
  const block = new Block(header, b.transactions, [], b.withdrawals, blockOpts);
  if (b.checkpointed) {
    await vm.evm.journal.commit();
    b.checkpointed = false;
  }
  return block;
}
