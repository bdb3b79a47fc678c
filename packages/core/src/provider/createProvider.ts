import { EventEmitter } from 'eventemitter3';
import { RpcRequestError } from '../errors/RpcRequestError.js';
import type { Kernel } from '../kernel/Kernel.js';
import type { RpcContext } from '../rpc/types.js';
import type { ConsoleEvent } from '../console/ConsoleCapture.js';

/** EIP-1193 events of the in-process provider. */
export interface ProviderEvents {
  connect: [info: { chainId: string }];
  disconnect: [error: RpcRequestError];
  chainChanged: [chainId: string];
  accountsChanged: [accounts: string[]];
  /**
   * Subscription notifications: `{ type: 'eth_subscription', data: { subscription, result } }`;
   * console.sol lines: `{ type: 'console', data: ConsoleEvent }`.
   */
  message: [message: { type: string; data: unknown }];
}

export interface Eip1193Provider extends EventEmitter<ProviderEvents> {
  request<T = unknown>(args: { method: string; params?: readonly unknown[] | object }): Promise<T>;
  readonly kernel: Kernel;
}

let nextId = 0;

/**
 * An EIP-1193 provider over a kernel, for viem's `custom()` transport, ethers' `BrowserProvider`
 * and Hardhat-style in-process test suites. Requests run through the kernel's dispatcher;
 * subscriptions made through it notify as `message` events and end when the kernel closes.
 */
export function createProvider(kernel: Kernel): Eip1193Provider {
  const emitter = new EventEmitter<ProviderEvents>() as Eip1193Provider;
  const closeHandlers: (() => void)[] = [];
  const connection: NonNullable<RpcContext['connection']> = {
    id: `provider-${++nextId}`,
    send(message: unknown) {
      const m = message as { method?: string; params?: unknown };
      emitter.emit('message', { type: m.method ?? 'eth_subscription', data: m.params });
    },
    onClose(fn: () => void) {
      closeHandlers.push(fn);
    },
  };
  Object.defineProperty(emitter, 'kernel', { value: kernel, enumerable: false });
  emitter.request = <T>(args: { method: string; params?: readonly unknown[] | object }): Promise<T> => {
    if (typeof args !== 'object' || args === null || typeof args.method !== 'string') {
      return Promise.reject(new RpcRequestError(-32600, 'invalid request: expected { method, params }'));
    }
    return kernel.request<T>(args, { connection });
  };
  const chainId = `0x${kernel.options.chain.chainId.toString(16)}`;
  queueMicrotask(() => emitter.emit('connect', { chainId }));
  const onConsole = (event: ConsoleEvent) => emitter.emit('message', { type: 'console', data: event });
  kernel.events.on('console', onConsole);
  kernel.events.once('close', () => {
    kernel.events.off('console', onConsole);
    for (const fn of closeHandlers.splice(0)) fn();
    emitter.emit('disconnect', new RpcRequestError(4900, 'the chain was closed'));
  });
  return emitter;
}
