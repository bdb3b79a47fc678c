import { type FSWatcher, existsSync, watch } from 'node:fs';
import {
  type CallFrame,
  flattenFrames,
  type IndexService,
  type KernelServices,
  type Logger,
  type StoredBlock,
} from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';
import { readArtifacts } from './artifacts.js';
import { compiledBytes } from './bytecode.js';
import { allContracts } from './contractList.js';
import { isAshlarError } from '@ashlar/core';
import { sourceLineFinder } from './sourceLines.js';
import type { Candidate, VerifiedContract } from './types.js';
import { type Verifier, codeHash } from './Verifier.js';

/** Adds a 32-byte word that holds an address (12 zero bytes, then a non-zero address) to `out`. */
function addressWord(word: Uint8Array, out: Set<string>): void {
  if (word.length !== 32) return;
  for (let i = 0; i < 12; i++) if (word[i] !== 0) return;
  if (word.subarray(12).every((b) => b === 0)) return;
  out.add(bytesToHex(word.subarray(12)));
}

/** Adds every address a successful CREATE/CREATE2 frame of the tree made to `out`. */
function createdBy(top: CallFrame, out: Set<string>): void {
  for (const { frame } of flattenFrames(top))
    if ((frame.type === 'CREATE' || frame.type === 'CREATE2') && frame.error === undefined) out.add(frame.to);
}

/** Quiet time after the last file event before the directory is read again (a compile writes many files). */
const DEBOUNCE_MS = 250;

/**
 * `--artifacts DIR`: verifies every deployed contract whose runtime code matches a contract
 * compiled into DIR — at start, after every block that may have created contracts, and whenever
 * DIR changes — with no user step.
 */
export class ArtifactsWatcher {
  private byLength = new Map<number, Candidate[]>();
  /** Source line of a pc, by verified address (builds with source maps only). */
  private readonly lineFinders = new Map<string, (pcs: readonly number[]) => string | undefined>();
  private watcher: FSWatcher | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  private scanTimer: NodeJS.Timeout | undefined;
  private waitTimer: NodeJS.Timeout | undefined;
  /** Contracts already compared against the current candidates (cleared when they change). */
  private checked = new Set<string>();
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly services: KernelServices,
    private readonly index: IndexService,
    private readonly verifier: Verifier,
    private readonly logger: Logger,
  ) {}

  /** Reads DIR, verifies what is deployed, then follows new blocks and file changes. */
  async start(): Promise<void> {
    await this.reload();
    this.services.events.on('block', this.onBlock);
    this.services.events.on('revert', this.onRevert);
    this.watch();
  }

  /** Watches DIR; a DIR that does not exist yet (nothing compiled so far) is looked for every second. */
  private watch(): void {
    if (this.closed) return;
    try {
      this.watcher = watch(this.dir, { recursive: true }, () => this.schedule('reload'));
      this.watcher.on('error', (e) => this.logger.warn(`artifacts: stopped watching ${this.dir}: ${e.message}`));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.logger.warn(`artifacts: cannot watch ${this.dir}: ${(e as Error).message}`);
        return;
      }
      this.logger.info(`artifacts: ${this.dir} does not exist yet; waiting for it`);
      this.waitTimer = setInterval(() => {
        if (!existsSync(this.dir)) return;
        clearInterval(this.waitTimer);
        this.watch();
        this.schedule('reload');
      }, 1000);
      this.waitTimer.unref();
    }
  }

  /** Resolves once pending reads and verifications are done (tests and shutdown wait on it). */
  idle(): Promise<void> {
    return this.running;
  }

  close(): void {
    this.closed = true;
    this.services.events.off('block', this.onBlock);
    this.services.events.off('revert', this.onRevert);
    this.watcher?.close();
    clearTimeout(this.reloadTimer);
    clearTimeout(this.scanTimer);
    clearInterval(this.waitTimer);
  }

  /** Addresses blocks touched or created since the last scan (a scan also reads the index's contracts). */
  private readonly touched = new Set<string>();

  /** The head moved back (snapshot revert, reset): addresses may hold other code now; compare all again. */
  private readonly onRevert = () => {
    this.checked.clear();
    this.schedule('scan');
  };

  private readonly onBlock = (sb: StoredBlock) => {
    if (this.byLength.size === 0) return;
    // Contracts made by contracts, from the captured frames: a child its factory never calls or logs.
    for (const top of sb.callFrames ?? []) if (top) createdBy(top, this.touched);
    for (const [i, tx] of sb.block.transactions.entries()) {
      if (tx.to) this.touched.add(tx.to.toString());
      for (const [address, topics, data] of sb.receipts[i]?.logs ?? []) {
        this.touched.add(bytesToHex(address));
        // A factory usually logs what it made: take every address-shaped word of the log.
        for (const t of topics) addressWord(t, this.touched);
        for (let o = 0; o + 32 <= data.length; o += 32) addressWord(data.subarray(o, o + 32), this.touched);
      }
    }
    this.schedule('scan');
  };

  private schedule(what: 'reload' | 'scan'): void {
    if (this.closed) return;
    if (what === 'reload') {
      clearTimeout(this.reloadTimer);
      this.reloadTimer = setTimeout(() => this.enqueue(() => this.reload()), DEBOUNCE_MS);
    } else if (!this.scanTimer) {
      // Blocks come fast under automine: one scan covers all blocks mined meanwhile.
      this.scanTimer = setTimeout(() => {
        this.scanTimer = undefined;
        this.enqueue(() => this.scan());
      }, 0);
    }
  }

  private enqueue(job: () => Promise<void>): void {
    this.running = this.running.then(job).catch((e) => this.logger.warn(`artifacts: ${(e as Error).message}`));
  }

  /** Re-reads DIR and compares every contract again. */
  async reload(): Promise<void> {
    if (this.closed) return;
    const candidates = await readArtifacts(this.dir);
    const byLength = new Map<number, Candidate[]>();
    for (const c of candidates) {
      let n: number;
      try {
        n = compiledBytes(c.runtime).length;
      } catch {
        continue;
      }
      byLength.set(n, [...(byLength.get(n) ?? []), c]);
    }
    this.byLength = byLength;
    this.checked.clear();
    this.logger.debug(`artifacts: ${candidates.length} compiled contracts in ${this.dir}`);
    await this.scan();
  }

  /** The line a contract verified from this folder reverted at (its last pcs, newest first), when its build has source maps (`Boom.sol:11`). */
  sourceLine(address: string, pcs: readonly number[]): string | undefined {
    return this.lineFinders.get(address.toLowerCase())?.(pcs);
  }

  hasSourceLines(address: string): boolean {
    return this.lineFinders.has(address.toLowerCase());
  }

  private keepSourceLines(address: string, rec: VerifiedContract, same: Candidate[] | undefined): void {
    const c = same?.find((x) => x.name === rec.name && x.filePath === rec.filePath && x.runtimeSourceMap);
    const finder = c ? sourceLineFinder(c) : undefined;
    if (finder) this.lineFinders.set(address.toLowerCase(), finder);
    else this.lineFinders.delete(address.toLowerCase());
  }

  /** Compares every contract not yet compared (and not yet verified) with the compiled ones. */
  async scan(): Promise<void> {
    if (this.closed || this.byLength.size === 0) return;
    const addresses: string[] = (await allContracts(this.index)).map((a) => bytesToHex(a));
    addresses.push(...this.touched);
    this.touched.clear();
    for (const address of addresses) {
      if (this.closed) return;
      if (this.checked.has(address)) continue;
      this.checked.add(address);
      const code = await this.verifier.code(address);
      const known = this.verifier.store.get(address);
      const same = this.byLength.get(code.length);
      if (known?.match === 'full' && known.codeHash === codeHash(code)) {
        this.keepSourceLines(address, known, same);
        continue;
      }
      if (!same || code.length === 0) continue;
      try {
        const rec = await this.verifier.verify(address, same, 'artifacts');
        this.keepSourceLines(address, rec, same);
        this.logger.info(`artifacts: verified ${rec.name} at ${address} (${rec.match} match)`);
      } catch (err) {
        // Same length is not same code: only a mismatch on every candidate lands here.
        if (!isAshlarError(err)) throw err;
        this.lineFinders.delete(address.toLowerCase());
        this.logger.debug(`artifacts: ${address}: ${err.message}`);
      }
    }
  }
}
