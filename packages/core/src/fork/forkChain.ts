import { createBlock, createBlockHeaderFromRPC } from '@ethereumjs/block';
import { Account, bytesToHex, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { DevAccount } from '../chain/accounts.js';
import type { StoredBlock } from '../chain/types.js';
import { storedBlock } from '../chain/storedBlock.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { ChainStore, StoreOp } from '../storage/ChainStore.js';
import type { StateNodeDb } from '../storage/StateNodeDb.js';
import type { StoragePort } from '../storage/StoragePort.js';
import { META } from '../storage/keys.js';
import { setCachedHeaderHash } from '../evm/internals.js';
import { fromData } from '../util/hex.js';
import { FORK_RECORD_KEY, type ForkStateManager } from './ForkStateManager.js';
import { FORK_META, type ForkContext, encodeForkRecord } from './openFork.js';

/** What opening a fork needs of the chain (ChainService, kept structural: the chain imports this module). */
export interface ForkedChain {
  readonly settings: { readonly chainId: bigint; readonly balance: bigint };
  readonly storage: StoragePort;
  readonly store: ChainStore;
  readonly stateDb: StateNodeDb;
  readonly common: Common;
  readonly accounts: readonly DevAccount[];
  head: StoredBlock;
  genesis: StoredBlock;
  headStateRoot: Uint8Array;
  newStateManager(): MerkleStateManager;
}

/**
 * Opens a forked chain: block N (the upstream's header) is its first block, or, on a database
 * that already holds this fork, the chain resumes where it stopped (no upstream state is read).
 * Sets the chain's genesis, head and head state root.
 */
export async function initForkChain(chain: ForkedChain, fork: ForkContext): Promise<void> {
  const stored = await chain.store.getMeta(META.genesis);
  const head = await chain.store.getHead();
  if (stored === undefined || head === undefined) {
    if (chain.storage.kind === 'memory') chain.stateDb.keepInMemory();
    const sb = await buildForkGenesis(chain, fork);
    const ops: StoreOp[] = [
      ...chain.stateDb.drain(),
      ...chain.store.blockOps(sb, sb.block.header.stateRoot),
      {
        type: 'put',
        sublevel: chain.store.meta,
        key: META.genesis,
        value: genesisRecord(sb.hash, chain.settings.chainId),
      },
      {
        type: 'put',
        sublevel: chain.store.meta,
        key: FORK_META,
        value: encodeForkRecord({ upstreamChainId: fork.upstreamChainId, number: fork.number, hash: fork.hash }),
      },
    ];
    await chain.store.write(ops);
    chain.store.pin(sb);
    chain.head = sb;
    chain.genesis = sb;
    chain.headStateRoot = sb.block.header.stateRoot;
    return;
  }
  chain.stateDb.discard();
  const location = chain.storage.location;
  const storedChainId = BigInt(bytesToHex(stored.subarray(32)));
  if (storedChainId !== chain.settings.chainId)
    throw new AshlarError(
      ErrorCodes.GENESIS_MISMATCH,
      `storage at ${location} holds chain id ${storedChainId}, not ${chain.settings.chainId}; use another --db path or the same chain options`,
    );
  if (!equalsBytes(stored.subarray(0, 32), fork.hash))
    throw new AshlarError(
      ErrorCodes.GENESIS_MISMATCH,
      `storage at ${location} holds a chain that does not start at the fork block ${fork.number} (${bytesToHex(fork.hash)}); use another --db path`,
    );
  const g = await chain.store.getBlock(fork.number);
  const h = await chain.store.getBlock(head.number);
  if (!g || !h)
    throw new AshlarError(
      ErrorCodes.STORAGE,
      `storage at ${location} is missing block ${g ? head.number : fork.number}`,
    );
  if (!equalsBytes(g.hash, fork.hash)) {
    setCachedHeaderHash(g.block.header, fork.hash);
    g.hash = fork.hash;
  }
  chain.store.pin(g);
  chain.genesis = g;
  chain.head = h;
  chain.headStateRoot = (await chain.store.getMeta(META.headState)) ?? h.block.header.stateRoot;
}

/**
 * Block N and the state the chain starts from. The header is the upstream's, so N's hash is the
 * upstream's and N+1 names it as parent; its state root is the upstream's too. The local trie
 * holds only what was written since: the dev accounts' balances, over the upstream's nonce and code,
 * and a record of the fork. So that every reader that opens "the state at block N" by N's state
 * root finds it, the local trie's root node is also stored under the upstream's root hash (the
 * node database is keyed by hash; this one entry is keyed by a name for the node instead).
 */
async function buildForkGenesis(chain: ForkedChain, fork: ForkContext): Promise<StoredBlock> {
  const common = chain.common;
  let block: ReturnType<typeof createBlock>;
  try {
    const header = createBlockHeaderFromRPC(fork.block as never, { common, skipConsensusFormatValidation: true });
    block = createBlock(
      { header, withdrawals: common.isActivatedEIP(4895) ? [] : undefined },
      { common, skipConsensusFormatValidation: true },
    );
  } catch (e) {
    throw new AshlarError(
      ErrorCodes.OPTIONS,
      `cannot take block ${fork.number} of ${fork.client.displayUrl} as the fork block under hardfork ${common.hardfork()}: ${(e as Error).message}`,
    );
  }
  // A header that does not re-encode to the upstream's hash here (another hardfork's fields, or a
  // block the upstream made up, as hardhat_mine's empty ranges) keeps the upstream's hash as given.
  if (!equalsBytes(block.hash(), fork.hash)) setCachedHeaderHash(block.header, fork.hash);
  // The dev accounts' upstream nonce and code, asked for together: one or two batched requests, not one each.
  await Promise.all(chain.accounts.map((a) => fork.state.account(a.address.bytes)));
  const sm = chain.newStateManager() as ForkStateManager;
  await sm.checkpoint();
  for (const a of chain.accounts) {
    const account = (await sm.getAccount(a.address)) ?? new Account();
    account.balance = chain.settings.balance;
    await sm.putAccount(a.address, account);
  }
  await sm.commit();
  await sm.putForkRecord(
    FORK_RECORD_KEY,
    encodeForkRecord({ upstreamChainId: fork.upstreamChainId, number: fork.number, hash: fork.hash }),
  );
  const localRoot = await sm.getStateRoot();
  const rootNode = await chain.stateDb.get(bytesToUnprefixedHex(localRoot));
  if (!(rootNode instanceof Uint8Array))
    throw new AshlarError(ErrorCodes.STORAGE, 'the fork state root node was not written');
  const upstreamRoot = fromData(fork.block.stateRoot);
  await chain.stateDb.put(bytesToUnprefixedHex(upstreamRoot), rootNode);
  return storedBlock({
    block,
    number: fork.number,
    hash: fork.hash,
    senders: [],
    receipts: [],
    totalDifficulty: block.header.difficulty,
    size: block.serialize().length,
  });
}

/** META.genesis: the genesis hash, then the chain id's bytes (as ChainService writes it). */
function genesisRecord(hash: Uint8Array, chainId: bigint): Uint8Array {
  const id = chainId.toString(16);
  const idBytes = Uint8Array.from(Buffer.from(id.length % 2 ? `0${id}` : id, 'hex'));
  const out = new Uint8Array(32 + idBytes.length);
  out.set(hash, 0);
  out.set(idBytes, 32);
  return out;
}
