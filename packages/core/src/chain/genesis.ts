import { type Block, createBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import type { DevAccount } from './accounts.js';
import type { ChainSettings } from './ChainSettings.js';
import { isMerged } from './chainCommon.js';
import { SYSTEM_CONTRACTS } from './systemContracts.js';

/** Writes the genesis allocation into `sm` and returns the genesis block on its state root. */
export async function buildGenesis(
  common: Common,
  sm: MerkleStateManager,
  chain: ChainSettings,
  accounts: DevAccount[],
): Promise<Block> {
  await sm.checkpoint();
  for (const a of accounts) {
    await sm.putAccount(a.address, new Account(0n, chain.balance));
  }
  for (const sc of SYSTEM_CONTRACTS) {
    if (!common.gteHardfork(sc.fork)) continue;
    const address = createAddressFromString(sc.address);
    // Nonce 1, as the EIPs' deployment transactions leave them.
    await sm.putAccount(address, new Account(1n, 0n));
    await sm.putCode(address, hexToBytes(sc.code));
  }
  await sm.commit();
  const stateRoot = await sm.getStateRoot();
  const merged = isMerged(common);
  return createBlock(
    {
      header: {
        number: 0n,
        gasLimit: chain.gasLimit,
        timestamp: BigInt(chain.genesisTimestamp ?? Math.floor(Date.now() / 1000)),
        stateRoot,
        coinbase: new Address(new Uint8Array(20)),
        difficulty: merged ? 0n : 131_072n,
        nonce: merged ? new Uint8Array(8) : hexToBytes('0x0000000000000042'),
        baseFeePerGas: common.isActivatedEIP(1559) ? chain.baseFee : undefined,
      },
    },
    { common, setHardfork: true },
  );
}
