/** Contract source languages Blockscout names (`filter` of /smart-contracts). */
export type Language = 'solidity' | 'yul' | 'vyper';

/** `{ start, length }` byte ranges inside a bytecode, as solc reports them. */
export interface ByteRange {
  start: number;
  length: number;
}

/** solc's `linkReferences`: file → library → placeholders. */
export type LinkReferences = Record<string, Record<string, ByteRange[]>>;

/** solc's standard JSON input, the part verification keeps. */
export interface StandardInput {
  language: string;
  sources: Record<string, { content?: string }>;
  settings?: Record<string, unknown>;
}

/**
 * One compiled contract that may be the code of a deployed address: from a compile of standard
 * JSON input, a Hardhat build-info or a Foundry artifact. Bytecodes are hex without `0x` and may
 * hold `__$…$__` library placeholders.
 */
export interface Candidate {
  name: string;
  filePath: string;
  language: Language;
  /** Blockscout's form: `v0.8.37+commit.a2c6b0e5`. */
  compilerVersion: string;
  input: StandardInput;
  abi: readonly unknown[];
  creation: string;
  runtime: string;
  immutableReferences: Record<string, ByteRange[]>;
  creationLinkReferences: LinkReferences;
  runtimeLinkReferences: LinkReferences;
  /** The runtime code's source map, from a build folder that has it (the line a revert came from). */
  runtimeSourceMap?: string;
  /** Source paths by source id (the map's `f`). */
  sourceList?: string[];
}

/** How a verification was asked for. */
export type VerifiedVia = 'standard-input' | 'artifacts' | 'etherscan';

/** What a verification stores, whichever way it came: the record /smart-contracts serves. */
export interface VerifiedContract {
  /** Lower-case 0x address. */
  address: string;
  name: string;
  filePath: string;
  language: Language;
  compilerVersion: string;
  evmVersion: string;
  optimizationEnabled: boolean;
  optimizationRuns: number | null;
  /** The input's settings without `outputSelection`, plus `compilationTarget` (as Blockscout shows them). */
  compilerSettings: Record<string, unknown>;
  /** Every source file of the compile, path → text. */
  sources: Record<string, string>;
  abi: unknown[];
  /** Hex after the creation code in the creation transaction; null when the contract was made by another contract. */
  constructorArgs: string | null;
  libraries: { name: string; address_hash: string }[];
  /** `full`: the CBOR metadata hash agrees too; `partial`: only the code without metadata and immutables does. */
  match: 'full' | 'partial';
  /** keccak256 of the runtime code verified: a different code at the address is `is_changed_bytecode`. */
  codeHash: string;
  /** ISO time of verification. */
  verifiedAt: string;
  via: VerifiedVia;
}
