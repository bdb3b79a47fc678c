// geth's txpool namespace: the pool split into pending (executable now) and queued (behind a
// nonce gap), per sender (EIP-55 address) and nonce (decimal string), as geth prints them.
import { type KernelServices, type PendingTx, defineRpcMethod, toQuantity } from '@ashlar/core';
import { toChecksumAddress } from '@ethereumjs/util';
import { toRpcTransaction } from '../format/index.js';
import { address } from '../params/index.js';
import type { RpcTransaction } from '../format/index.js';

type BySender<T> = Record<string, Record<string, T>>;

/** The pool partitioned against the head state's nonces (under the chain lock, so they agree). */
function partition(services: KernelServices): Promise<{ pending: PendingTx[]; queued: PendingTx[] }> {
  const { chain, mempool } = services;
  return chain.exclusive(async () => {
    const nonces = new Map<string, bigint>();
    for (const p of mempool.all()) {
      const key = p.sender.toString();
      if (!nonces.has(key)) nonces.set(key, (await chain.vm.stateManager.getAccount(p.sender))?.nonce ?? 0n);
    }
    return mempool.partition((s) => nonces.get(s) ?? 0n);
  });
}

function group<T>(txs: PendingTx[], f: (p: PendingTx) => T): BySender<T> {
  const out: BySender<T> = {};
  for (const p of txs) {
    const sender = toChecksumAddress(p.sender.toString());
    out[sender] ??= {};
    out[sender][p.tx.nonce.toString()] = f(p);
  }
  return out;
}

/** Every pooled transaction in its RPC shape (block fields null). */
export const txpool_content = defineRpcMethod({
  name: 'txpool_content',
  params: [],
  handler: async (ctx) => {
    const { pending, queued } = await partition(ctx.services);
    const f = (p: PendingTx): RpcTransaction => toRpcTransaction(p.tx, p.sender);
    return { pending: group(pending, f), queued: group(queued, f) };
  },
});

/** One sender's pooled transactions by nonce: `{ pending: { "0": tx }, queued: {} }`. */
export const txpool_contentFrom = defineRpcMethod({
  name: 'txpool_contentFrom',
  params: [address('address')],
  handler: async (ctx, [from]) => {
    const { pending, queued } = await partition(ctx.services);
    const byNonce = (txs: PendingTx[]) => {
      const out: Record<string, RpcTransaction> = {};
      for (const p of txs) if (p.sender.equals(from)) out[p.tx.nonce.toString()] = toRpcTransaction(p.tx, p.sender);
      return out;
    };
    return { pending: byNonce(pending), queued: byNonce(queued) };
  },
});

/** How many transactions are pending and queued. */
export const txpool_status = defineRpcMethod({
  name: 'txpool_status',
  params: [],
  handler: async (ctx) => {
    const { pending, queued } = await partition(ctx.services);
    return { pending: toQuantity(pending.length), queued: toQuantity(queued.length) };
  },
});

/** geth's one-line summary per transaction: `<to>: <value> wei + <gas> gas × <price> wei`. */
function summary(p: PendingTx): string {
  const tx = p.tx;
  const to = tx.to ? toChecksumAddress(tx.to.toString()) : 'contract creation';
  const price =
    'maxFeePerGas' in tx ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
  return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`;
}

export const txpool_inspect = defineRpcMethod({
  name: 'txpool_inspect',
  params: [],
  handler: async (ctx) => {
    const { pending, queued } = await partition(ctx.services);
    return { pending: group(pending, summary), queued: group(queued, summary) };
  },
});
