/**
 * Typed access to the compiled fixture contracts in `test/contracts/artifacts.json`.
 *
 * Regenerate the artifacts after editing a `.sol` file:
 *
 *   node --import tsx test/contracts/compile.ts
 */
import { readFileSync } from 'node:fs';
import type { InterfaceAbi } from 'ethers';
import type { Abi, Hex } from 'viem';

/** Every contract compiled from `test/contracts/*.sol`. */
export const CONTRACT_NAMES = [
  'Callee',
  'Collectible',
  'Counter',
  'Doomed',
  'Factory',
  'Loop',
  'MultiToken',
  'Token',
  'Tracer',
] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

/**
 * A solc JSON ABI, typed so that it can be handed as-is to viem (`Abi`) and to ethers (`InterfaceAbi`).
 * (The two libraries disagree only on the legacy `gas` field, which solc never emits.)
 */
export type ClientAbi = Abi & InterfaceAbi;

export interface Artifact {
  readonly contractName: ContractName;
  /** JSON ABI as emitted by solc; usable as-is by ethers and viem (web3: `abi as unknown as ContractAbi`). */
  readonly abi: ClientAbi;
  /** Creation bytecode (constructor arguments not included). */
  readonly bytecode: Hex;
  /** Runtime bytecode; immutables (e.g. Counter.owner) are left as zero placeholders. */
  readonly deployedBytecode: Hex;
}

export const ARTIFACTS_URL = new URL('../contracts/artifacts.json', import.meta.url);

let cache: Record<ContractName, Artifact> | undefined;

function isHex(value: unknown): value is Hex {
  return typeof value === 'string' && /^0x(?:[0-9a-f]{2})*$/i.test(value);
}

/** All artifacts, read once from artifacts.json and validated. */
export function loadArtifacts(): Readonly<Record<ContractName, Artifact>> {
  if (cache) return cache;
  const raw = JSON.parse(readFileSync(ARTIFACTS_URL, 'utf8')) as Record<string, Record<string, unknown> | undefined>;
  const loaded = {} as Record<ContractName, Artifact>;
  for (const name of CONTRACT_NAMES) {
    const entry = raw[name];
    if (!entry || !Array.isArray(entry.abi) || !isHex(entry.bytecode) || !isHex(entry.deployedBytecode)) {
      throw new Error(
        `artifacts.json has no valid entry for ${name}; run \`node --import tsx test/contracts/compile.ts\``,
      );
    }
    loaded[name] = Object.freeze({
      contractName: name,
      abi: entry.abi as ClientAbi,
      bytecode: entry.bytecode,
      deployedBytecode: entry.deployedBytecode,
    });
  }
  cache = Object.freeze(loaded);
  return cache;
}

/** One compiled contract: `const { abi, bytecode } = loadArtifact('Counter')`. */
export function loadArtifact(name: ContractName): Artifact {
  return loadArtifacts()[name];
}

/** The first three of the 20 Hardhat dev accounts ("test test … junk", m/44'/60'/0'/0/i), 10000 ETH each on the node. */
export const DEV_ACCOUNTS = [
  {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
] as const satisfies ReadonlyArray<{ address: Hex; privateKey: Hex }>;
