import type { BlockHeader } from '@ethereumjs/block';
import { Address, bigIntToAddressBytes, bigIntToBytes, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/** EIP-4788's beacon roots contract (its address is fixed by the EIP, not a chain parameter). */
const BEACON_ROOTS = createAddressFromString('0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02');

const word = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);

/**
 * The state writes a block makes before its first transaction, as @ethereumjs/vm's runBlock and
 * BlockBuilder make them (accumulateParentBeaconBlockRoot / accumulateParentBlockHash, which the
 * package does not export): EIP-4788 stores the parent beacon root under the block's timestamp,
 * EIP-2935 the parent hash under the parent's number, each only when its contract has code. A
 * replay that starts from the block's pre-state runs these first, so a transaction that reads
 * either contract is traced as it ran when mined.
 */
export async function applyBlockSystemCalls(vm: VM, header: BlockHeader): Promise<void> {
  const common = vm.common;
  const sm = vm.stateManager;
  if (common.isActivatedEIP(4788) && header.parentBeaconBlockRoot !== undefined) {
    if ((await sm.getCode(BEACON_ROOTS)).length > 0) {
      const length = BigInt(common.param('historicalRootsLength'));
      const index = header.timestamp % length;
      await sm.putStorage(BEACON_ROOTS, word(index), bigIntToBytes(header.timestamp));
      await sm.putStorage(BEACON_ROOTS, word(index + length), header.parentBeaconBlockRoot);
    }
  }
  if (common.isActivatedEIP(2935) && header.number > 0n) {
    const history = new Address(bigIntToAddressBytes(common.param('historyStorageAddress')));
    if ((await sm.getCode(history)).length > 0) {
      const window = common.param('historyServeWindow');
      await sm.putStorage(history, word((header.number - 1n) % window), header.parentHash);
    }
  }
  await vm.evm.journal.cleanup();
}
