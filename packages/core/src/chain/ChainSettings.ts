import type { GethGenesisJson } from './gethGenesis.js';

/**
 * The chain's slice of the kernel's resolved options (ChainOptions with the defaults filled):
 * what ChainService and the genesis builder read, and nothing of mining, RPC or plugins.
 */
export interface ChainSettings {
  chainId: bigint;
  hardfork: string;
  mnemonic: string;
  /** Number of dev accounts. */
  accounts: number;
  /** Balance of each dev account in wei. */
  balance: bigint;
  /** Block gas limit. */
  gasLimit: bigint;
  /** Base fee of the genesis block in wei. */
  baseFee: bigint;
  /** Block beneficiary, lower-case hex. */
  coinbase: string;
  /** Keep each mined transaction's call frames with its block. */
  callFrames: boolean;
  /** Genesis timestamp in seconds; undefined: the time the chain is created. */
  genesisTimestamp?: number;
  /** A geth-format genesis that replaces the dev genesis. */
  genesis?: GethGenesisJson;
}
