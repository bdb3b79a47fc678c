import type { BlockBuilder } from '@ethereumjs/vm';
import type { VM } from '@ethereumjs/vm';
import { Address, bigIntToAddressBytes, bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import { writeWord32 } from '../util/hex.js';
import { SETTLED } from '../util/settled.js';
import { minimalBytes } from '../storage/unpaddedBytes.js';
import { ChainStateManager, codeNow } from '../chain/ChainStateManager.js';

/** What BlockBuilder.initState reads and sets on the builder (@ethereumjs/vm 10.1.3). */
interface BuilderStart {
  vm: VM;
  headerData: { timestamp?: unknown; number?: unknown; parentHash?: unknown; parentBeaconBlockRoot?: unknown };
  checkpointed: boolean;
  initState(): Promise<void>;
}

/** EIP-4788's beacon roots contract: a constant in @ethereumjs/vm's runBlock, not a parameter. */
const BEACON_ROOTS = new Address(Uint8Array.from(Buffer.from('000f3df6d732807ef1319fb7b8bb8522d0beac02', 'hex')));

/** The addresses and ring sizes of the system writes, per chain rules (hardfork), looked up once. */
interface StartParams {
  /** EIP-4788 in force: the beacon root written into its ring. */
  beaconRoots: boolean;
  rootsLength: bigint;
  history?: { address: Address; window: bigint };
}
const paramsByVm = new WeakMap<VM, Map<string, StartParams>>();

function startParams(vm: VM): StartParams {
  let known = paramsByVm.get(vm);
  if (!known) {
    known = new Map();
    paramsByVm.set(vm, known);
  }
  const hf = vm.common.hardfork();
  let p = known.get(hf);
  if (!p) {
    const common = vm.common;
    const beaconRoots = common.isActivatedEIP(4788);
    p = { beaconRoots, rootsLength: beaconRoots ? BigInt(common.param('historicalRootsLength')) : 0n };
    if (common.isActivatedEIP(2935)) {
      p.history = {
        address: new Address(bigIntToAddressBytes(common.param('historyStorageAddress'))),
        window: BigInt(common.param('historyServeWindow')),
      };
    }
    known.set(hf, p);
  }
  return p;
}

/** `n` as a 32-byte big-endian storage key; the ring indexes are below 2 × 8191 (a DataView per key cost more). */
function slotKey(n: bigint): Uint8Array {
  if (n >= 0x1_0000_0000n) return setLengthLeft(bigIntToBytes(n), 32);
  const key = new Uint8Array(32);
  writeWord32(key, 28, Number(n));
  return key;
}

/**
 * BlockBuilder.initState (what @ethereumjs/vm's buildBlock runs before the first transaction):
 * the EIP-4788 beacon-root and EIP-2935 parent-hash writes into their system contracts' rings,
 * the same writes in the same order through the same state manager, with the storage keys made
 * directly. Stock builds each key as setLengthLeft(bigIntToBytes(i), 32), a hex round trip and
 * a padding by array spreads (~10 µs of each automined block), and looks up the addresses and
 * ring sizes per block. Rules this does not cover (EIP-7928 access lists, EIP-7864 binary
 * trees) or header fields of another type take the builder's own initState.
 */
export async function startBlock(builder: BlockBuilder): Promise<void> {
  const b = builder as unknown as BuilderStart;
  const vm = b.vm;
  const common = vm.common;
  const { timestamp, number, parentHash, parentBeaconBlockRoot } = b.headerData;
  const plain =
    !common.isActivatedEIP(7928) &&
    !common.isActivatedEIP(7864) &&
    typeof timestamp === 'bigint' &&
    typeof number === 'bigint' &&
    parentHash instanceof Uint8Array &&
    (parentBeaconBlockRoot === undefined || parentBeaconBlockRoot instanceof Uint8Array);
  if (!plain) return b.initState();
  const params = startParams(vm);
  const sm = vm.stateManager;
  const history = params.history;
  if (!params.beaconRoots && !history) return;
  if (!b.checkpointed) {
    const opened = vm.evm.journal.checkpoint();
    if (opened !== SETTLED) await opened;
    b.checkpointed = true;
  }
  // (address, key, value) triples, written below through one call site: three inlined copies of
  // putStorage and three awaits made this function's compiled code (a fresh node's) larger.
  const writes: (Address | Uint8Array)[] = [];
  // As accumulateParentBeaconBlockRoot: nothing written while the contract has no code.
  if (params.beaconRoots && (codeIsSet(sm, BEACON_ROOTS) ?? (await codeRead(sm, BEACON_ROOTS)))) {
    const index = timestamp % params.rootsLength;
    // bigIntToBytes(timestamp) without its hex round trip (minimalBytes: the same bytes).
    writes.push(BEACON_ROOTS, slotKey(index), minimalBytes(timestamp));
    const root = (parentBeaconBlockRoot as Uint8Array | undefined) ?? ZERO_ROOT;
    const rootKey = slotKey(index + params.rootsLength);
    // A zero root stored over an empty slot changes nothing (an SSTORE of 0 over 0), and every
    // block Ashlar mines carries a zero root: the write is made only when the slot may hold a
    // root (a forked chain's ring, an imported block's). Made, it cost a fresh node's automined
    // transfer ~30 µs: a journaled cache write, a delete walk of the storage trie at the flush,
    // and TurboFan compiling that walk.
    if (!isZero(root) || slotEmptyNow(sm, BEACON_ROOTS, rootKey) !== true) writes.push(BEACON_ROOTS, rootKey, root);
  }
  // As accumulateParentBlockHash: the parent's hash at (number - 1) mod the window.
  if (history && (codeIsSet(sm, history.address) ?? (await codeRead(sm, history.address))))
    writes.push(history.address, slotKey((number - 1n) % history.window), parentHash);
  for (let i = 0; i < writes.length; i += 3) {
    // ChainStateManager answers SETTLED for a write done at once (the contract's account is cached).
    const written = sm.putStorage(writes[i] as Address, writes[i + 1] as Uint8Array, writes[i + 2] as Uint8Array);
    if (written !== SETTLED) await written;
  }
  // Each stock write ends with a journal cleanup; nothing between them goes through the journal
  // (code reads and storage writes are the state manager's), so one cleanup after both leaves
  // the journal as two did, with one set of fresh journal maps and sets made instead of two.
  if (writes.length > 0) {
    const cleaned = vm.evm.journal.cleanup();
    if (cleaned !== SETTLED) await cleaned;
  }
}

const ZERO_ROOT = new Uint8Array(32);

function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** `sm.slotEmptyNow` for any state manager: undefined (not known without a read) where it is not a ChainStateManager. */
function slotEmptyNow(sm: VM['stateManager'], address: Address, key: Uint8Array): boolean | undefined {
  return sm instanceof ChainStateManager ? sm.slotEmptyNow(address, key) : undefined;
}

/** Whether the system contract at `address` has code, from the caches; undefined when they do not hold it. */
function codeIsSet(sm: VM['stateManager'], address: Address): boolean | undefined {
  const code = codeNow(sm, address);
  return code === undefined ? undefined : code.length > 0;
}

/** Whether the system contract at `address` has code, read. */
async function codeRead(sm: VM['stateManager'], address: Address): Promise<boolean> {
  return (await sm.getCode(address)).length > 0;
}
