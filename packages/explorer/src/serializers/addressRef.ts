import { bytesToHex } from '@ethereumjs/util';
import type { Facts } from '../Explorer.js';
import type { ContractInfo } from '../verify/SmartContracts.js';
import { checksum } from './format.js';

/**
 * An address as Blockscout embeds it (`from`, `to`, `miner`, …). A dev chain has no tags or
 * ENS; `name`, `is_verified` and the proxy fields come from verified contracts.
 * `implementation_name` is spec §2.5's field (Blockscout 10 replaced it by `implementations`).
 */
export interface AddressRef {
  hash: string;
  implementation_name: string | null;
  name: string | null;
  is_contract: boolean;
  is_verified: boolean;
  is_scam: boolean;
  reputation: 'ok';
  private_tags: never[];
  public_tags: never[];
  watchlist_names: never[];
  ens_domain_name: null;
  metadata: null;
  proxy_type: string | null;
  implementations: { address_hash: string; name: string | null }[];
}

export function addressRef(address: Uint8Array | string, isContract: boolean, info?: ContractInfo): AddressRef {
  return {
    hash: checksum(address),
    implementation_name: info?.implementationName ?? null,
    name: info?.name ?? null,
    is_contract: isContract || info !== undefined,
    is_verified: info?.isVerified ?? false,
    is_scam: false,
    reputation: 'ok',
    private_tags: [],
    public_tags: [],
    watchlist_names: [],
    ens_domain_name: null,
    metadata: null,
    proxy_type: info?.proxy?.type ?? null,
    implementations: (info?.proxy?.implementations ?? []).map((a, i) => ({
      address_hash: checksum(a),
      name: i === 0 ? (info?.implementationName ?? null) : null,
    })),
  };
}

/** The reference, with `is_contract` from the page's facts. */
export function refOf(address: Uint8Array, facts: Facts): AddressRef {
  const h = bytesToHex(address);
  return addressRef(address, facts.contracts.has(h), facts.sc?.info(h));
}
