import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { verificationFailed } from './errors.js';

/**
 * solc-js compiles synchronously: a viaIR input held the event loop for 1–27 s, freezing every
 * other client (issue #20). Compilations with the installed solc therefore run in a worker
 * thread: a queue, a concurrency limit and a timeout. A worker loads solc once (~1 s, ~120 MB)
 * and stays for the next compilation; a compilation past the timeout terminates its worker.
 */
export interface CompileQueueOptions {
  /** Compilations at once, each in its own worker (default 1). */
  concurrency?: number;
  /** Compilations waiting beyond those; one more is refused at once (default 16). */
  maxQueued?: number;
  /** Longest compilation in ms; its worker is then stopped (default 120,000). */
  timeoutMs?: number;
}

// CommonJS, evaluated in the worker: solc-js is a CommonJS package, required by absolute path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const solc = require(workerData.solcPath);
const missing = (path) => ({ error: 'import not found: ' + path + ' (every source must be in the input)' });
parentPort.on('message', (input) => {
  try {
    parentPort.postMessage({ output: solc.compile(input, { import: missing }) });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
});
`;

interface Job {
  input: string;
  resolve(output: string): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

export class CompileQueue {
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly timeoutMs: number;
  private readonly waiting: Job[] = [];
  private readonly idle: Slot[] = [];
  private busy = 0;
  private solcPath?: string;

  constructor(options: CompileQueueOptions = {}) {
    this.concurrency = options.concurrency ?? 1;
    this.maxQueued = options.maxQueued ?? 16;
    this.timeoutMs = options.timeoutMs ?? 120_000;
  }

  /** solc's standard-JSON output for `input` (its text), compiled off the main thread. */
  compile(input: string): Promise<string> {
    if (this.busy >= this.concurrency && this.waiting.length >= this.maxQueued) {
      return Promise.reject(
        verificationFailed(
          `the compiler queue is full: ${this.busy} compiling, ${this.waiting.length} waiting; try again later`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.next();
    });
  }

  /** Stops every worker (a node closing). */
  async close(): Promise<void> {
    for (const job of this.waiting.splice(0)) job.reject(verificationFailed('the node is closing'));
    await Promise.all(this.idle.splice(0).map((s) => s.worker.terminate()));
  }

  private next(): void {
    while (this.busy < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift() as Job;
      this.busy++;
      this.run(this.idle.pop() ?? this.spawn(), job);
    }
  }

  private spawn(): Slot {
    this.solcPath ??= createRequire(import.meta.url).resolve('solc');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { solcPath: this.solcPath } });
    // An idle worker must never keep the process alive.
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (m: { output?: string; error?: string }) => {
      const job = this.finish(slot);
      if (job === undefined) return;
      this.idle.push(slot);
      if (m.error !== undefined) job.reject(verificationFailed(`solc failed: ${m.error}`));
      else job.resolve(m.output ?? '');
      this.next();
    });
    worker.on('error', (e) => this.lose(slot, `solc failed: ${e.message}`));
    worker.on('exit', () => this.lose(slot, 'solc stopped'));
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => {
      this.lose(slot, `compilation took longer than ${this.timeoutMs} ms and was stopped`);
      void slot.worker.terminate();
    }, this.timeoutMs);
    slot.timer.unref();
    slot.worker.postMessage(job.input);
  }

  /** The slot's job, taken off it (undefined when it had none). */
  private finish(slot: Slot): Job | undefined {
    const job = slot.job;
    slot.job = undefined;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    if (job !== undefined) this.busy--;
    return job;
  }

  /** A worker gone (crash, exit, timeout): its job fails, the slot is not reused. */
  private lose(slot: Slot, message: string): void {
    const i = this.idle.indexOf(slot);
    if (i !== -1) this.idle.splice(i, 1);
    const job = this.finish(slot);
    job?.reject(verificationFailed(message));
    this.next();
  }
}

/** One queue for the process: compilations share the machine's cores whatever explorer asks. */
export const compileQueue = new CompileQueue();
