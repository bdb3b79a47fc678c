import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { bytesToHex, publicToAddress } from '@ethereumjs/util';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MNEMONIC, deriveAccounts } from './accounts.js';
import { publicKeyOf } from './nativeCrypto.js';

describe('deriveAccounts', () => {
  it("gives Hardhat and Anvil's well-known dev accounts", () => {
    const [a0, a1] = deriveAccounts(DEFAULT_MNEMONIC, 2);
    expect(a0.address.toString()).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(bytesToHex(a0.privateKey)).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(a1.address.toString()).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
  });

  it('derives the same keys as @scure/bip32 for other mnemonics and paths', () => {
    const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    for (const path of ["m/44'/60'/0'/0", "m/44'/60'/1'/7"]) {
      const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
      const ours = deriveAccounts(mnemonic, 5, path);
      for (let i = 0; i < 5; i++) {
        expect(bytesToHex(ours[i].privateKey)).toBe(bytesToHex(root.derive(`${path}/${i}`).privateKey as Uint8Array));
      }
    }
  });

  it('refuses an invalid mnemonic', () => {
    expect(() => deriveAccounts('not a real mnemonic at all', 1)).toThrow(/invalid mnemonic/);
  });
});

describe('publicKeyOf', () => {
  it("gives the key noble derives, whose address is the account's", () => {
    for (const a of deriveAccounts(DEFAULT_MNEMONIC, 3)) {
      const pub = publicKeyOf(a.privateKey);
      expect(bytesToHex(pub)).toBe(bytesToHex(secp256k1.getPublicKey(a.privateKey, false).slice(1)));
      expect(bytesToHex(publicToAddress(pub))).toBe(a.address.toString());
    }
  });
});
