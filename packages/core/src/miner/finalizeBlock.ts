import { type Block, createBlock, genRequestsRoot, genWithdrawalsTrieRoot } from '@ethereumjs/block';
import { type Common, Mainnet } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import {
  Address,
  CLRequest,
  CLRequestType,
  bigIntToAddressBytes,
  bytesToBigInt,
  bytesToHex,
  setLengthLeft,
  type Withdrawal,
} from '@ethereumjs/util';
import type { BlockBuilder, RunTxResult, VM } from '@ethereumjs/vm';
import { sha256 } from '@noble/hashes/sha2.js';

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

async function queueIsIdle(vm: VM, param: string): Promise<boolean> {
  const a = new Address(bigIntToAddressBytes(vm.common.param(param)));
  for (const slot of [EXCESS_SLOT, COUNT_SLOT, HEAD_SLOT, TAIL_SLOT]) {
    if (bytesToBigInt(await vm.stateManager.getStorage(a, slotKey(slot))) !== 0n) return false;
  }
  return true;
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
  if (common.isActivatedEIP(8282)) return false;
  const chainParams = (common as unknown as { _chainParams: { depositContractAddress?: string } })._chainParams;
  const deposit = (chainParams.depositContractAddress ?? Mainnet.depositContractAddress ?? '').toLowerCase();
  for (const r of results) {
    for (const log of r.receipt.logs) if (bytesToHex(log[0]) === deposit) return false;
  }
  if (common.isActivatedEIP(7002) && !(await queueIsIdle(vm, 'withdrawalRequestPredeployAddress'))) {
    return false;
  }
  if (common.isActivatedEIP(7251) && !(await queueIsIdle(vm, 'consolidationRequestPredeployAddress'))) {
    return false;
  }
  return true;
}

/**
 * BlockBuilder.build() for a block whose requests are idle: the same header fields, computed
 * the same way, without running the request system calls.
 */
export async function finalizeIdleBlock(
  vm: VM,
  builder: BlockBuilder,
  headerData: Record<string, unknown>,
  blockOpts: Parameters<typeof createBlock>[1],
): Promise<Block> {
  const b = builder as unknown as BuilderState;
  const common = vm.common;
  await b.processWithdrawals();
  const transactionsTrie = await builder.transactionsTrie();
  const withdrawalsRoot = b.withdrawals
    ? await genWithdrawalsTrieRoot(b.withdrawals, new MerklePatriciaTrie({ common }))
    : undefined;
  const receiptTrie = await builder.receiptTrie();
  const logsBloom = builder.logsBloom();
  let requestsHash: Uint8Array | undefined;
  if (common.isActivatedEIP(7685)) {
    const empty: CLRequest<CLRequestType>[] = [];
    if (common.isActivatedEIP(6110)) empty.push(new CLRequest(CLRequestType.Deposit, new Uint8Array()));
    if (common.isActivatedEIP(7002)) empty.push(new CLRequest(CLRequestType.Withdrawal, new Uint8Array()));
    if (common.isActivatedEIP(7251)) empty.push(new CLRequest(CLRequestType.Consolidation, new Uint8Array()));
    requestsHash = genRequestsRoot(empty, common.customCrypto.sha256 ?? sha256);
  }
  const stateRoot = await vm.stateManager.getStateRoot();
  const block = createBlock(
    {
      header: {
        ...headerData,
        stateRoot,
        transactionsTrie,
        withdrawalsRoot,
        receiptTrie,
        logsBloom,
        gasUsed: b.gasUsed,
        blobGasUsed: common.isActivatedEIP(4844) ? b.blobGasUsed : undefined,
        requestsHash,
      },
      transactions: b.transactions,
      withdrawals: b.withdrawals?.map((w) => w.toValue()),
    },
    blockOpts,
  );
  if (b.checkpointed) {
    await vm.evm.journal.commit();
    b.checkpointed = false;
  }
  return block;
}
