import * as AbiParameters from 'ox/AbiParameters';
import type { ProxyInfo } from '../verify/proxy.js';
import { type Param, render } from '../verify/abi.js';
import { constructorInputs } from '../verify/Verifier.js';
import type { VerifiedContract } from '../verify/types.js';
import type { AddressRef } from './addressRef.js';
import { checksum, dec } from './format.js';

/** `…T08:05:27.051Z` → `…T08:05:27.051000Z`: the explorer's microsecond timestamps (spec §2.5). */
const micro = (iso: string) => iso.replace(/\.(\d{3})Z$/, '.$1000Z');

/** The chain facts a detail shows beside the verified record. */
export interface ContractCode {
  deployed: string;
  /** keccak256 of `deployed`. */
  deployedHash: string;
  /** The creating transaction's input; null when a contract created it. */
  creation: string | null;
  proxy: ProxyInfo | undefined;
  /** Names of verified implementations, by lower-case address. */
  implementationName: (address: string) => string | null;
}

function proxyFields(code: ContractCode) {
  return {
    proxy_type: code.proxy?.type ?? null,
    implementations: (code.proxy?.implementations ?? []).map((a) => ({
      address_hash: checksum(a),
      name: code.implementationName(a),
    })),
    conflicting_implementations: null,
  };
}

/** `[value, {internalType, name, type}]` pairs of the constructor arguments (Blockscout's form). */
function decodedConstructorArgs(rec: VerifiedContract): [unknown, Param][] | null {
  if (!rec.constructorArgs) return null;
  const inputs = constructorInputs(rec.abi) as readonly Param[];
  if (inputs.length === 0) return null;
  try {
    const values = AbiParameters.decode(inputs as never, rec.constructorArgs as `0x${string}`) as readonly unknown[];
    return inputs.map((p, i) => [
      render(p, values[i]),
      { internalType: p.internalType ?? p.type, name: p.name ?? '', type: p.type },
    ]);
  } catch {
    return null;
  }
}

/** /smart-contracts/{hash} of an address with code that nobody verified: Blockscout's short form. */
export function unverifiedContractJson(code: ContractCode) {
  return {
    ...proxyFields(code),
    deployed_bytecode: code.deployed,
    creation_bytecode: code.creation,
    creation_status: 'success',
  };
}

/**
 * /smart-contracts/{hash} of a verified contract: spec §2.5's fields (`abi` as a string holding
 * the JSON array, `optimizations_runs`) and Blockscout's (`optimization_runs`, proxies).
 */
export function smartContractJson(rec: VerifiedContract, code: ContractCode) {
  const main = rec.sources[rec.filePath] ?? '';
  const minimal = code.proxy?.type === 'eip1167' ? code.proxy.implementations[0] : undefined;
  return {
    ...proxyFields(code),
    verified_twin_address_hash: null,
    is_verified: true,
    is_changed_bytecode: code.deployedHash !== rec.codeHash,
    is_partially_verified: rec.match === 'partial',
    is_fully_verified: rec.match === 'full',
    is_verified_via_sourcify: false,
    is_verified_via_eth_bytecode_db: false,
    is_verified_via_verifier_alliance: false,
    is_vyper_contract: rec.language === 'vyper',
    is_self_destructed: code.deployed === '0x',
    is_blueprint: false,
    can_be_visualized_via_sol2uml: rec.language === 'solidity',
    minimal_proxy_address_hash: minimal ? checksum(minimal) : null,
    sourcify_repo_url: null,
    name: rec.name,
    optimization_enabled: rec.optimizationEnabled,
    optimizations_runs: rec.optimizationRuns,
    optimization_runs: rec.optimizationRuns,
    compiler_version: rec.compilerVersion,
    evm_version: rec.evmVersion,
    verified_at: micro(rec.verifiedAt),
    abi: JSON.stringify(rec.abi),
    source_code: main,
    file_path: rec.filePath,
    compiler_settings: rec.compilerSettings,
    constructor_args: rec.constructorArgs,
    has_constructor_args: rec.constructorArgs !== null && rec.constructorArgs !== '0x',
    decoded_constructor_args: decodedConstructorArgs(rec),
    additional_sources: Object.entries(rec.sources)
      .filter(([path]) => path !== rec.filePath)
      .map(([file_path, source_code]) => ({ file_path, source_code })),
    deployed_bytecode: code.deployed,
    creation_bytecode: code.creation,
    creation_status: 'success',
    external_libraries: rec.libraries,
    language: rec.language,
    license_type: 'none',
    certified: false,
    reputation: 'ok',
  };
}

/** An item of /smart-contracts (`tx_count` is spec §2.5's name, `transactions_count` Blockscout's). */
export function smartContractItem(rec: VerifiedContract, address: AddressRef, balance: bigint | null, txCount: bigint) {
  return {
    address,
    coin_balance: balance === null ? null : dec(balance),
    compiler_version: rec.compilerVersion,
    language: rec.language,
    has_constructor_args: rec.constructorArgs !== null && rec.constructorArgs !== '0x',
    optimization_enabled: rec.optimizationEnabled,
    tx_count: Number(txCount),
    transactions_count: Number(txCount),
    verified_at: micro(rec.verifiedAt),
    market_cap: null,
    license_type: 'none',
    certified: false,
    reputation: 'ok',
  };
}
