import { bytesToHex } from '@ethereumjs/util';
import type { Facts } from '../Explorer.js';
import { checksum } from './format.js';

/**
 * An address as Blockscout embeds it (`from`, `to`, `miner`, …). A dev chain has no names,
 * tags, ENS, proxies or verified sources, so those fields are their empty values.
 * `implementation_name` is spec §2.5's field (Blockscout 10 replaced it by `implementations`).
 */
export interface AddressRef {
  hash: string;
  implementation_name: null;
  name: null;
  is_contract: boolean;
  is_verified: boolean;
  is_scam: boolean;
  reputation: 'ok';
  private_tags: never[];
  public_tags: never[];
  watchlist_names: never[];
  ens_domain_name: null;
  metadata: null;
  proxy_type: null;
  implementations: never[];
}

export function addressRef(address: Uint8Array | string, isContract: boolean): AddressRef {
  return {
    hash: checksum(address),
    implementation_name: null,
    name: null,
    is_contract: isContract,
    is_verified: false,
    is_scam: false,
    reputation: 'ok',
    private_tags: [],
    public_tags: [],
    watchlist_names: [],
    ens_domain_name: null,
    metadata: null,
    proxy_type: null,
    implementations: [],
  };
}

/** The reference, with `is_contract` from the page's facts. */
export function refOf(address: Uint8Array, facts: Facts): AddressRef {
  return addressRef(address, facts.contracts.has(bytesToHex(address)));
}
