import { codeAt, type IndexService, type KernelServices } from '@ashlar/core';
import { bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import * as AbiParameters from 'ox/AbiParameters';
import { compareRuntime, splitCreationInput } from './bytecode.js';
import { verificationFailed } from './errors.js';
import type { VerifiedStore } from './VerifiedStore.js';
import type { Candidate, VerifiedContract, VerifiedVia } from './types.js';

type Hex = `0x${string}`;

/** keccak256 of runtime code, hex (what a record keeps to notice the code changed). */
export const codeHash = (code: Uint8Array): string => bytesToHex(keccak_256(code));

interface AbiInputs {
  type?: string;
  inputs?: readonly AbiParameters.Parameter[];
}

/** The constructor's inputs in an ABI (none without a constructor). */
export function constructorInputs(abi: readonly unknown[]): readonly AbiParameters.Parameter[] {
  const c = (abi as AbiInputs[]).find((i) => i.type === 'constructor');
  return c?.inputs ?? [];
}

/** Checks that constructor arguments decode (and re-encode to the same bytes) under the ABI. */
export function checkConstructorArgs(abi: readonly unknown[], args: Uint8Array, name: string): void {
  const inputs = constructorInputs(abi);
  if (inputs.length === 0) {
    if (args.length > 0)
      throw verificationFailed(`constructor arguments do not decode: ${name} takes none, got ${args.length} bytes`);
    return;
  }
  try {
    const values = AbiParameters.decode(inputs, args);
    const again = AbiParameters.encode(inputs, values as readonly unknown[]);
    if (again.length !== 2 + args.length * 2) throw new Error('trailing bytes after the arguments');
  } catch (e) {
    throw verificationFailed(
      `constructor arguments do not decode as (${inputs.map((i) => i.type).join(',')}): ${(e as Error).message.split('\n')[0]}`,
    );
  }
}

/**
 * Matches compiled candidates against what is deployed and stores the verified record. The
 * same code serves the three ways in (standard input, artifacts, Etherscan API).
 */
export class Verifier {
  constructor(
    private readonly services: KernelServices,
    private readonly index: IndexService,
    readonly store: VerifiedStore,
  ) {}

  async code(address: string): Promise<Uint8Array> {
    return codeAt(this.services.chain, address);
  }

  /** The input of the transaction that created `address`, when a transaction (not a contract) did. */
  async creationInput(address: string): Promise<Uint8Array | undefined> {
    const rec = await this.index.queries.contract(hexToBytes(address as Hex));
    if (!rec || rec.txIndex === null || !rec.creator) return undefined;
    const sb = await this.services.chain.getBlock(rec.block);
    const tx = sb?.block.transactions[rec.txIndex];
    if (!tx || tx.to !== undefined) return undefined;
    // A constructor that creates contracts: its children share the transaction but were made by
    // the new contract (their creator), not from the transaction's input.
    if (!equalsBytes(rec.creator, tx.getSenderAddress().bytes)) return undefined;
    return tx.data;
  }

  /**
   * Verifies `address` against the candidates (the first that matches wins; a full match over a
   * partial one). Throws a VerificationError naming the reason when none matches.
   */
  async verify(
    address: string,
    candidates: readonly Candidate[],
    via: VerifiedVia,
    given: { constructorArgs?: string } = {},
  ): Promise<VerifiedContract> {
    const addr = address.toLowerCase();
    const deployed = await this.code(addr);
    if (deployed.length === 0) throw verificationFailed(`address ${address} has no code`);
    if (candidates.length === 0) throw verificationFailed('the sources compile to no deployable contract');
    const record = await this.match(addr, deployed, candidates, via, given);
    await this.store.put(record);
    return record;
  }

  /** The record the best candidate gives, without storing it. */
  async match(
    addr: string,
    deployed: Uint8Array,
    candidates: readonly Candidate[],
    via: VerifiedVia,
    given: { constructorArgs?: string } = {},
  ): Promise<VerifiedContract> {
    let best: { c: Candidate; r: Extract<ReturnType<typeof compareRuntime>, { ok: true }> } | undefined;
    const reasons: string[] = [];
    for (const c of candidates) {
      const r = compareRuntime(deployed, c.runtime, c.immutableReferences, c.runtimeLinkReferences);
      if (!r.ok) {
        reasons.push(`${c.filePath}:${c.name}: ${r.reason}`);
        continue;
      }
      if (!best || (best.r.match === 'partial' && r.match === 'full')) best = { c, r };
      if (r.match === 'full') break;
    }
    if (!best) {
      const shown = reasons.slice(0, 3).join('; ');
      throw verificationFailed(
        candidates.length === 1
          ? `bytecode does not match: ${shown}`
          : `bytecode matches none of ${candidates.length} compiled contracts: ${shown}${reasons.length > 3 ? '; …' : ''}`,
      );
    }
    const { c, r } = best;
    let constructorArgs: string | null = null;
    const input = await this.creationInput(addr);
    if (input) {
      const args = splitCreationInput(input, c.creation, c.creationLinkReferences, r.match === 'partial');
      if (!args)
        throw verificationFailed(`the creation transaction's input does not start with the creation code of ${c.name}`);
      checkConstructorArgs(c.abi, args, c.name);
      constructorArgs = bytesToHex(args);
    } else if (given.constructorArgs) {
      const raw = given.constructorArgs.replace(/^0x/, '');
      if (!/^([0-9a-fA-F]{2})*$/.test(raw)) throw verificationFailed('constructor arguments are not hex');
      checkConstructorArgs(c.abi, Uint8Array.from(Buffer.from(raw, 'hex')), c.name);
      constructorArgs = `0x${raw.toLowerCase()}`;
    }
    return recordOf(addr, c, r.match, constructorArgs, r.libraries, via, codeHash(deployed));
  }
}

export function recordOf(
  address: string,
  c: Candidate,
  match: 'full' | 'partial',
  constructorArgs: string | null,
  libraries: { name: string; address_hash: string }[],
  via: VerifiedVia,
  hash: string,
): VerifiedContract {
  const { outputSelection: _drop, ...settings } = (c.input.settings ?? {}) as Record<string, unknown>;
  const optimizer = (settings.optimizer ?? {}) as { enabled?: boolean; runs?: number };
  const sources: Record<string, string> = {};
  for (const [path, s] of Object.entries(c.input.sources)) sources[path] = s.content ?? '';
  return {
    address,
    name: c.name,
    filePath: c.filePath,
    language: c.language,
    compilerVersion: c.compilerVersion,
    evmVersion: typeof settings.evmVersion === 'string' ? settings.evmVersion : 'default',
    optimizationEnabled: optimizer.enabled === true,
    optimizationRuns: optimizer.enabled === true ? (optimizer.runs ?? 200) : null,
    compilerSettings: { ...settings, compilationTarget: { [c.filePath]: c.name } },
    sources,
    abi: [...c.abi],
    constructorArgs,
    libraries,
    match,
    codeHash: hash,
    verifiedAt: new Date().toISOString(),
    via,
  };
}
