/** The miner's slice of the kernel's options: mining mode and the block fields it starts with. */
export interface MinerSettings {
  /** Mine a block per accepted transaction. */
  automine: boolean;
  /** Seconds between interval-mined blocks; 0 for none. */
  blockTime: number;
  /** Beneficiary of mined blocks (hardhat_setCoinbase changes it later). */
  coinbase: string;
  /** Gas limit of mined blocks (evm_setBlockGasLimit changes it later). */
  gasLimit: bigint;
}
