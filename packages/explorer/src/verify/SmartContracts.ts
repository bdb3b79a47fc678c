import type { IndexService, KernelServices, Logger, StoredBlock } from '@ashlar/core';
import { ArtifactsWatcher } from './ArtifactsWatcher.js';
import { compileStandardInput, pickContract } from './compile.js';
import { verificationFailed } from './errors.js';
import { type ProxyInfo, detectProxy } from './proxy.js';
import type { SolcLoader } from './solc.js';
import type { StandardInput, VerifiedContract, VerifiedVia } from './types.js';
import { VerifiedStore } from './VerifiedStore.js';
import { Verifier } from './Verifier.js';

export interface SmartContractsOptions {
  /** A Hardhat or Foundry build folder to verify deployed contracts from (`--artifacts DIR`). */
  artifacts?: string;
  /** Compilers for versions other than the installed solc (e.g. `solc.setupMethods(require(soljson))`). */
  solc?: SolcLoader;
}

/** What the address references of a page show about a contract. */
export interface ContractInfo {
  name: string | null;
  isVerified: boolean;
  proxy: ProxyInfo | undefined;
  implementationName: string | null;
}

export interface StandardInputRequest {
  address: string;
  compilerVersion: string;
  contractName?: string;
  input: StandardInput;
  constructorArgs?: string;
}

/**
 * Verified contracts of one explorer: the store, the verifier, the artifacts watcher and the
 * last proxy detection of each address (what address references show).
 */
export class SmartContracts {
  private readonly proxies = new Map<string, ProxyInfo>();
  private readonly merged = new WeakMap<readonly unknown[], WeakMap<readonly unknown[], unknown[]>>();
  readonly verifier: Verifier;
  watcher: ArtifactsWatcher | undefined;

  private constructor(
    private readonly services: KernelServices,
    readonly store: VerifiedStore,
    index: IndexService,
    private readonly options: SmartContractsOptions,
  ) {
    this.verifier = new Verifier(services, index, store);
  }

  static async open(
    services: KernelServices,
    index: IndexService,
    logger: Logger,
    options: SmartContractsOptions = {},
  ): Promise<SmartContracts> {
    const store = await VerifiedStore.open(services.chain.storage);
    const sc = new SmartContracts(services, store, index, options);
    services.events.on('block', sc.onBlock);
    if (options.artifacts) {
      sc.watcher = new ArtifactsWatcher(options.artifacts, services, index, sc.verifier, logger);
      await sc.watcher.start();
    }
    return sc;
  }

  close(): void {
    this.services.events.off('block', this.onBlock);
    this.watcher?.close();
  }

  /** Callees already probed for a proxy pattern (once each: their pages detect again). */
  private readonly probed = new Set<string>();

  /**
   * Once some contract is verified, the callees of new blocks are probed for a proxy pattern,
   * so their calls and logs decode with the implementation's ABI without a page visit first.
   */
  private readonly onBlock = (sb: StoredBlock) => {
    if (this.store.size === 0) return;
    const fresh = new Set<string>();
    for (const tx of sb.block.transactions) {
      const to = tx.to?.toString();
      if (to && !this.probed.has(to) && !this.store.get(to)) fresh.add(to);
    }
    for (const a of fresh) {
      this.probed.add(a);
      this.proxyOf(a).catch(() => this.probed.delete(a));
    }
  };

  get(address: string): VerifiedContract | undefined {
    return this.store.get(address);
  }

  /**
   * A proxy's pattern and implementation at the head, read now (dev methods move slots without
   * a block, so nothing is reused); address references show the last detection.
   */
  async proxyOf(address: string): Promise<ProxyInfo | undefined> {
    const key = address.toLowerCase();
    const info = await detectProxy(this.services, key);
    if (info) this.proxies.set(key, info);
    else this.proxies.delete(key);
    return info;
  }

  /** The last proxy detection of an address, without reading the chain (for address references). */
  knownProxy(address: string): ProxyInfo | undefined {
    return this.proxies.get(address.toLowerCase());
  }

  info(address: string): ContractInfo | undefined {
    const rec = this.store.get(address);
    const proxy = this.knownProxy(address);
    if (!rec && !proxy) return undefined;
    const impl = proxy?.implementations[0];
    return {
      name: rec?.name ?? null,
      isVerified: rec !== undefined,
      proxy,
      implementationName: impl ? (this.store.get(impl)?.name ?? null) : null,
    };
  }

  /**
   * The Solidity line (`Boom.sol:11`) `address`'s code reverted at, from its last pcs (newest
   * first), when --artifacts verified it from a build with source maps.
   */
  sourceLineAt(address: string, pcs: readonly number[]): string | undefined {
    return this.watcher?.sourceLine(address, pcs);
  }

  /** The ABI to decode calls to and logs of `address` with: its own, else its implementation's. */
  abiOf(address: string): readonly unknown[] | undefined {
    const own = this.store.get(address)?.abi;
    const impl = this.knownProxy(address)?.implementations[0];
    const implAbi = impl ? this.store.get(impl)?.abi : undefined;
    if (!own || !implAbi) return own ?? implAbi;
    // One merged array per pair, so the ABI's selector index (abi.ts) is built once.
    let byImpl = this.merged.get(own);
    if (!byImpl) {
      byImpl = new WeakMap();
      this.merged.set(own, byImpl);
    }
    let merged = byImpl.get(implAbi);
    if (!merged) {
      merged = [...own, ...implAbi];
      byImpl.set(implAbi, merged);
    }
    return merged;
  }

  /** Compiles standard JSON input and verifies the address with it (nothing stored on failure). */
  async verifyStandardInput(req: StandardInputRequest, via: VerifiedVia): Promise<VerifiedContract> {
    const code = await this.verifier.code(req.address);
    if (code.length === 0) throw verificationFailed(`address ${req.address} has no code`);
    if (!req.compilerVersion) throw verificationFailed('compiler_version is missing');
    const compiled = await compileStandardInput(req.input, req.compilerVersion, this.options.solc);
    const candidates = pickContract(compiled, req.contractName);
    return this.verifier.verify(req.address, candidates, via, { constructorArgs: req.constructorArgs });
  }
}
