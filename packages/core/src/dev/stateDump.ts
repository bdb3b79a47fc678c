import { gunzipSync, gzipSync } from 'node:zlib';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { CODEHASH_PREFIX, type MerkleStateManager } from '@ethereumjs/statemanager';
import {
  Account,
  KECCAK256_NULL,
  KECCAK256_RLP,
  ValueEncoding,
  bytesToHex,
  concatBytes,
  createAccountFromRLP,
  equalsBytes,
  hexToBytes,
  setLengthLeft,
  unpadBytes,
} from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import { keccak256 } from '../chain/nativeCrypto.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { toQuantity } from '../util/hex.js';

type Hex = `0x${string}`;

/** One account of a dump: Anvil's shape (its loadState reads the same fields). */
export interface DumpedAccount {
  nonce: number | Hex;
  balance: Hex;
  code: Hex;
  storage: Record<Hex, Hex>;
}

/**
 * The JSON anvil_dumpState writes (gzip'd and hex-encoded on the wire, as Anvil does).
 * Account keys are addresses where the node knows the address behind a trie key, otherwise the
 * 32-byte trie key itself (keccak of the address); storage keys are trie keys (keccak of the slot)
 * when `hashedStorageKeys` is true, since a trie stores no slot numbers. Either way a dump loads
 * back into the same state; a dump without the flag (Anvil's) has plain slots.
 */
export interface StateDump {
  block?: { number: Hex; hash: Hex; stateRoot: Hex };
  hashedStorageKeys?: boolean;
  accounts: Record<string, DumpedAccount>;
}

function trieAt(chain: ChainService, root: Uint8Array): MerklePatriciaTrie {
  const trie = new MerklePatriciaTrie({
    db: chain.stateDb,
    useKeyHashing: true,
    valueEncoding: ValueEncoding.Bytes,
    common: chain.common,
    cacheSize: 0,
  });
  trie.root(root);
  return trie;
}

async function leaves(trie: MerklePatriciaTrie): Promise<[Hex, Hex][]> {
  const { values } = await trie.getValueMap();
  return Object.entries(values) as [Hex, Hex][];
}

/**
 * Every account of the head state, read by walking the state trie (nothing else knows them all).
 * `names` maps trie keys (keccak of an address, hex) to the addresses the node has seen.
 */
export function dumpState(chain: ChainService, names: Map<string, string>): Promise<StateDump> {
  return chain.exclusive(async () => {
    const sm = chain.vm.stateManager as MerkleStateManager;
    const root = await sm.getStateRoot(); // flushes cached writes into the trie first
    const accounts: Record<string, DumpedAccount> = {};
    const accountTrie = trieAt(chain, root);
    const db = accountTrie.database();
    for (const [key, value] of await leaves(accountTrie)) {
      const acct = accountOrUndefined(value);
      // A forked chain's trie also holds its own marks beside the accounts (fork/ForkStateManager.ts).
      if (!acct) continue;
      let code: Uint8Array = new Uint8Array();
      if (!equalsBytes(acct.codeHash, KECCAK256_NULL)) {
        code = (await db.get(concatBytes(CODEHASH_PREFIX, acct.codeHash))) ?? code;
      }
      const storage: Record<Hex, Hex> = {};
      if (!equalsBytes(acct.storageRoot, KECCAK256_RLP)) {
        for (const [slot, rlp] of await leaves(trieAt(chain, acct.storageRoot))) {
          storage[slot] = bytesToHex(setLengthLeft(RLP.decode(hexToBytes(rlp)) as Uint8Array, 32));
        }
      }
      accounts[names.get(key) ?? key] = {
        nonce: Number(acct.nonce),
        balance: toQuantity(acct.balance),
        code: bytesToHex(code),
        storage,
      };
    }
    return {
      block: { number: toQuantity(chain.head.number), hash: bytesToHex(chain.head.hash), stateRoot: bytesToHex(root) },
      hashedStorageKeys: true,
      accounts,
    };
  });
}

function accountOrUndefined(value: Hex): ReturnType<typeof createAccountFromRLP> | undefined {
  try {
    return createAccountFromRLP(hexToBytes(value));
  } catch {
    return undefined;
  }
}

/** The hex anvil_dumpState answers: gzip'd JSON, as Anvil writes it. */
export function encodeDump(dump: StateDump): Hex {
  return bytesToHex(gzipSync(JSON.stringify(dump)));
}

/** Reads a dump given as an object, as hex of gzip'd JSON (Anvil) or as hex of plain JSON. */
export function decodeDump(input: unknown): StateDump {
  let value = input;
  if (typeof value === 'string') {
    const bytes = Buffer.from(value.replace(/^0x/, ''), 'hex');
    const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
    try {
      value = JSON.parse(text);
    } catch {
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'invalid argument 0 (state): not a state dump (hex of JSON)');
    }
  }
  if (typeof value !== 'object' || value === null || typeof (value as StateDump).accounts !== 'object') {
    throw new AshlarError(
      ErrorCodes.INVALID_PARAMS,
      'invalid argument 0 (state): a state dump has an "accounts" object',
    );
  }
  return value as StateDump;
}

function bytesOf(hex: string, what: string): Uint8Array {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(hex)) {
    throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 0 (state): ${what} is not hex data: ${hex}`);
  }
  return hexToBytes(hex as Hex);
}

function bigOf(v: number | string, what: string): bigint {
  try {
    const n = BigInt(v);
    if (n >= 0n) return n;
  } catch {}
  throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 0 (state): ${what} is not a quantity: ${v}`);
}

/** Trie key of an account entry: keccak of the address, or the 32-byte key a dump already holds. */
function accountKey(key: string): Uint8Array {
  const b = bytesOf(key, `account key ${key}`);
  if (b.length === 20) return keccak256(b);
  if (b.length === 32) return b;
  throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 0 (state): account key ${key} is not an address`);
}

/**
 * anvil_loadState: writes every account of the dump into the head state (accounts not in it
 * stay; listed storage slots are set, others kept), as one state edit. Works on the tries
 * directly, since a dump may name accounts and slots by trie key only.
 */
export function loadState(chain: ChainService, dump: StateDump): Promise<void> {
  return chain.exclusive(async () => {
    const sm = chain.vm.stateManager as MerkleStateManager;
    const accountTrie = trieAt(chain, await sm.getStateRoot());
    const db = accountTrie.database();
    for (const [key, entry] of Object.entries(dump.accounts)) {
      const trieKey = accountKey(key);
      const { node, remaining } = await accountTrie.findPath(trieKey);
      const existing = node !== null && remaining.length === 0 ? node.value() : null;
      const acct = existing ? createAccountFromRLP(existing) : new Account();
      if (entry.nonce !== undefined) acct.nonce = bigOf(entry.nonce, `nonce of ${key}`);
      if (entry.balance !== undefined) acct.balance = bigOf(entry.balance, `balance of ${key}`);
      if (entry.code !== undefined) {
        const code = bytesOf(entry.code, `code of ${key}`);
        acct.codeHash = keccak256(code);
        if (code.length > 0) await db.put(concatBytes(CODEHASH_PREFIX, acct.codeHash), code);
      }
      const storage = trieAt(chain, acct.storageRoot);
      for (const [slotHex, valueHex] of Object.entries(entry.storage ?? {})) {
        const slot = setLengthLeft(bytesOf(slotHex, `storage key ${slotHex}`), 32);
        const value = unpadBytes(bytesOf(valueHex, `storage value ${valueHex}`));
        const slotKey = dump.hashedStorageKeys ? slot : keccak256(slot);
        if (value.length === 0) await storage.del(slotKey, true);
        else await storage.put(slotKey, RLP.encode(value), true);
      }
      acct.storageRoot = storage.root();
      await accountTrie.put(trieKey, acct.serialize(), true);
    }
    // The state manager caches what it read: point it at the new root, then persist it.
    await sm.setStateRoot(accountTrie.root());
    await chain.commitStateEdit();
  });
}
