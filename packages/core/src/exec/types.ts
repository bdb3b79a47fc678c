import type { Address } from '@ethereumjs/util';

/** A transaction-like request: eth_call, eth_estimateGas, eth_sendTransaction. */
export interface CallRequest {
  from?: Address;
  to?: Address | null;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
  type?: number;
  chainId?: bigint;
  accessList?: { address: Address; storageKeys: Uint8Array[] }[];
  authorizationList?: {
    chainId: bigint;
    address: Address;
    nonce: bigint;
    yParity: bigint;
    r: bigint;
    s: bigint;
  }[];
  blobVersionedHashes?: Uint8Array[];
  maxFeePerBlobGas?: bigint;
}

/** eth_call's third parameter, per account. */
export interface AccountOverride {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** Replaces the whole storage. */
  state?: Map<string, Uint8Array>;
  /** Changes single slots. */
  stateDiff?: Map<string, Uint8Array>;
}

export type StateOverrides = Map<string, AccountOverride>;
