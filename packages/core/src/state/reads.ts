import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { BlockRef, BlockTag, ChainService } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';

/** Where a read happens: a block reference, a block number, or a tag (default `latest`). */
export type StateAt = BlockRef | BlockTag | bigint;

/** An account as the state trie holds it; an account never touched reads as all zeros. */
export interface AccountState {
  nonce: bigint;
  balance: bigint;
  /** keccak256 of the code (keccak256 of nothing for an account without code). */
  codeHash: Uint8Array;
  storageRoot: Uint8Array;
}

const KECCAK_EMPTY = hexToBytes('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
const EMPTY_TRIE_ROOT = hexToBytes('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');

function toRef(at: StateAt): BlockRef {
  if (typeof at === 'bigint') return { kind: 'number', number: at };
  if (typeof at === 'string') return { kind: 'tag', tag: at };
  return at;
}

function toAddress(a: Address | Uint8Array | string): Address {
  if (a instanceof Address) return a;
  if (a instanceof Uint8Array) {
    if (a.length !== 20) throw new AshlarError(ErrorCodes.INVALID_PARAMS, `address must be 20 bytes, got ${a.length}`);
    return new Address(a);
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(a))
    throw new AshlarError(ErrorCodes.INVALID_PARAMS, `address must be 0x and 40 hex digits, got ${a.slice(0, 50)}`);
  return new Address(hexToBytes(a as `0x${string}`));
}

function toSlot(slot: bigint | Uint8Array | string): Uint8Array {
  if (typeof slot === 'bigint') {
    if (slot < 0n || slot >= 2n ** 256n) throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'storage slot out of range');
    return setLengthLeft(hexToBytes(`0x${slot.toString(16).padStart(64, '0')}`), 32);
  }
  const bytes = typeof slot === 'string' ? hexToBytes(slot as `0x${string}`) : slot;
  if (bytes.length > 32) throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'storage slot longer than 32 bytes');
  return setLengthLeft(bytes, 32);
}

/**
 * Runs `fn` on the state at a block. The head's state manager is the live one that blocks and
 * calls write, so a head read runs inside the chain's lock (`chain.exclusive`); history reads a
 * view of the trie at that block's root and needs no lock. If a block is mined while the read
 * waits for the lock, the read still sees the block it asked for.
 */
export async function readStateAt<T>(
  chain: ChainService,
  at: StateAt,
  fn: (state: MerkleStateManager, block: StoredBlock) => Promise<T>,
): Promise<T> {
  const sb = await chain.requireBlock(toRef(at));
  if (!chain.isHead(sb)) return fn(await chain.stateManagerFor(sb), sb);
  return chain.exclusive(async () => fn(await chain.stateManagerFor(sb), sb));
}

/** The account at a block (zeros for an untouched one). */
export function readAccount(
  chain: ChainService,
  address: Address | Uint8Array | string,
  at: StateAt = 'latest',
): Promise<AccountState> {
  const addr = toAddress(address);
  return readStateAt(chain, at, async (sm) => {
    const a = await sm.getAccount(addr);
    if (!a) return { nonce: 0n, balance: 0n, codeHash: KECCAK_EMPTY, storageRoot: EMPTY_TRIE_ROOT };
    return { nonce: a.nonce, balance: a.balance, codeHash: a.codeHash, storageRoot: a.storageRoot };
  });
}

/** Balance in wei at a block. */
export async function balanceAt(chain: ChainService, address: Address | Uint8Array | string, at: StateAt = 'latest') {
  return (await readAccount(chain, address, at)).balance;
}

/** Nonce (transactions sent, or contracts created for a contract) at a block. */
export async function nonceAt(chain: ChainService, address: Address | Uint8Array | string, at: StateAt = 'latest') {
  return (await readAccount(chain, address, at)).nonce;
}

/** Runtime code at a block (empty for an account without code). */
export function codeAt(
  chain: ChainService,
  address: Address | Uint8Array | string,
  at: StateAt = 'latest',
): Promise<Uint8Array> {
  const addr = toAddress(address);
  return readStateAt(chain, at, (sm) => sm.getCode(addr));
}

/** A storage word at a block, 32 bytes (zeros for an unset slot); the slot as a number, hex or bytes. */
export function storageAt(
  chain: ChainService,
  address: Address | Uint8Array | string,
  slot: bigint | Uint8Array | string,
  at: StateAt = 'latest',
): Promise<Uint8Array> {
  const addr = toAddress(address);
  const key = toSlot(slot);
  return readStateAt(chain, at, async (sm) => setLengthLeft(await sm.getStorage(addr, key), 32));
}
