import { EventEmitter } from 'node:events';
import type { AshlarHardhatOptions } from './options.js';
import { type AshlarChain, startAshlar } from './startAshlar.js';

export interface RequestArguments {
  method: string;
  params?: readonly unknown[] | object;
}

/**
 * An EIP-1193 provider that starts its Ashlar chain on the first request. Hardhat 2 builds
 * `hre.network.provider` synchronously, while a chain starts asynchronously; this also keeps a
 * task that never touches the network (compile, clean) from starting one. `send` and `sendAsync`
 * are the older calls Hardhat 2's provider also answers.
 */
export class LazyAshlarProvider extends EventEmitter {
  #chain?: Promise<AshlarChain>;

  constructor(
    private readonly options: AshlarHardhatOptions = {},
    private readonly start: (options: AshlarHardhatOptions) => Promise<AshlarChain> = startAshlar,
  ) {
    super();
  }

  /** The chain, started on the first call. */
  chain(): Promise<AshlarChain> {
    if (!this.#chain) {
      this.#chain = this.start(this.options).then((chain) => {
        // Subscription notifications (eth_subscribe) reach listeners of this provider.
        chain.provider.on('message', (m) => this.emit('message', m));
        return chain;
      });
    }
    return this.#chain;
  }

  async request<T = unknown>(args: RequestArguments): Promise<T> {
    const chain = await this.chain();
    return chain.provider.request<T>(args);
  }

  send<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
    return this.request<T>({ method, params });
  }

  sendAsync(
    payload: { id?: number | string; method: string; params?: readonly unknown[] },
    callback: (error: Error | null, response?: { jsonrpc: '2.0'; id?: number | string; result: unknown }) => void,
  ): void {
    this.request({ method: payload.method, params: payload.params ?? [] }).then(
      (result) => callback(null, { jsonrpc: '2.0', id: payload.id, result }),
      (error: Error) => callback(error),
    );
  }

  /** Closes the chain (and its server) if it was started. */
  async close(): Promise<void> {
    const chain = this.#chain;
    this.#chain = undefined;
    if (chain) await (await chain).close();
  }
}
