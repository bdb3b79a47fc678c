// The dev chain's Common and keys, for signing transactions in the bench client.
import { DEFAULT_MNEMONIC, deriveAccounts } from '@ashlar/core';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';

export { DEFAULT_MNEMONIC, deriveAccounts };

export function createDevCommon() {
  return createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' });
}
