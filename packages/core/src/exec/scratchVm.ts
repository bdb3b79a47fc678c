import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { type BatchDBOp, type DB, MapDB, ValueEncoding } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { ChainService } from '../chain/ChainService.js';

type Value = string | Uint8Array;

/**
 * A trie database that reads the chain's nodes and keeps its own writes: blocks built or
 * replayed on the side (traces, simulations, testing_buildBlockV1) compute real state roots
 * without a single node reaching the chain's write buffer.
 */
function overlayDb(chain: ChainService): DB<string, Value> {
  const own = new MapDB<string, Value>();
  const db: DB<string, Value> = {
    get: async (key) => (await own.get(key)) ?? chain.stateDb.get(key),
    put: (key, value) => own.put(key, value),
    del: async () => undefined,
    batch: (ops: BatchDBOp<string, Value>[]) => own.batch(ops),
    shallowCopy: () => db,
    open: async () => undefined,
  };
  return db;
}

/**
 * A VM on the state at `stateRoot` under the rules of block (`number`, `timestamp`), with a
 * Common of its own (the chain's is shared by the head VM and the pool) and writes that go
 * nowhere. BLOCKHASH reads the chain. `caches: true` puts account/storage/code caches in front of
 * the trie, as the head's state manager has: without them every SLOAD/SSTORE walks (and every
 * SSTORE rehashes) the storage trie — a traced 1M-gas storage loop ran 10x slower. Off by
 * default: eth_simulateV1 reads the uncached trie between its calls.
 */
export async function scratchVm(
  chain: ChainService,
  stateRoot: Uint8Array,
  rules: { number: bigint; timestamp: bigint },
  options: { caches?: boolean } = {},
): Promise<VM> {
  const common = chain.common.copy();
  common.setHardforkBy({ blockNumber: rules.number, timestamp: rules.timestamp });
  const trie = new MerklePatriciaTrie({
    db: overlayDb(chain),
    root: stateRoot,
    useKeyHashing: true,
    valueEncoding: ValueEncoding.Bytes,
    common,
  });
  const caches = options.caches
    ? new Caches({ account: { size: 10_000 }, storage: { size: 10_000 }, code: { size: 1_000 } })
    : undefined;
  const sm = new MerkleStateManager({ common, trie, caches });
  return chain.createVmOn(sm, common);
}
