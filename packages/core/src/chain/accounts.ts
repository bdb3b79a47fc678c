import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { Address, privateToAddress } from '@ethereumjs/util';

export interface DevAccount {
  address: Address;
  privateKey: Uint8Array;
}

export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';

/** Derives accounts on m/44'/60'/0'/0/i, the path Hardhat, Anvil and Ganache use. */
export function deriveAccounts(mnemonic: string, count: number, path = "m/44'/60'/0'/0"): DevAccount[] {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const out: DevAccount[] = [];
  for (let i = 0; i < count; i++) {
    const key = root.derive(`${path}/${i}`).privateKey;
    if (!key) throw new Error(`cannot derive account ${i}`);
    out.push({ address: new Address(privateToAddress(key)), privateKey: key });
  }
  return out;
}
