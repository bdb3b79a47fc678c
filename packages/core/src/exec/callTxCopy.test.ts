import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { callTxWithData, shapeCallTx } from './callTxCopy.js';

const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
const from = new Address(Uint8Array.from({ length: 20 }, (_, i) => i + 1));
const to = new Address(Uint8Array.from({ length: 20 }, (_, i) => 40 - i));

/** An unsigned call transaction as Executor builds one: createTx, a fixed sender, frozen. */
function callTx(fields: Record<string, unknown>): TypedTransaction {
  const tx = createTx(fields as Parameters<typeof createTx>[0], { common, freeze: false });
  (tx as { getSenderAddress: () => Address }).getSenderAddress = () => from;
  return Object.freeze(tx);
}

const feeMarket = {
  type: 2,
  nonce: 3n,
  gasLimit: 50_000n,
  to,
  value: 7n,
  data: Uint8Array.of(1, 2, 3, 4),
  maxFeePerGas: 0n,
  maxPriorityFeePerGas: 0n,
  accessList: [],
};
const legacy = { type: 0, nonce: 3n, gasLimit: 50_000n, to, value: 7n, data: Uint8Array.of(1, 2), gasPrice: 10n };

/** What runTx reads of a transaction, as plain values. */
function observed(tx: TypedTransaction) {
  return {
    type: tx.type,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    to: tx.to?.toString(),
    value: tx.value,
    data: [...tx.data],
    sender: tx.getSenderAddress().toString(),
    dataGas: tx.getDataGas(),
    intrinsicGas: tx.getIntrinsicGas(),
    upfront: tx.getUpfrontCost(5n),
    capabilities: [1559, 2718, 2930, 155].map((c) => tx.supports(c)),
    accessList: JSON.stringify(tx.accessList),
    isSigned: tx.isSigned(),
    frozen: Object.isFrozen(tx),
  };
}

describe('shapeCallTx and callTxWithData', () => {
  for (const [name, fields] of [
    ['EIP-1559', feeMarket],
    ['legacy', legacy],
  ] as const) {
    it(`keep every field of a ${name} call transaction, in the constructor's order`, () => {
      const made = callTx(fields);
      const shaped = shapeCallTx(made);
      expect(shaped).not.toBe(made);
      expect(Object.getPrototypeOf(shaped)).toBe(Object.getPrototypeOf(made));
      expect(Object.keys(shaped)).toEqual(Object.keys(made));
      expect(observed(shaped)).toEqual(observed(callTx(fields)));
    });

    it(`give a ${name} call transaction other data as createTx would`, () => {
      const shaped = shapeCallTx(callTx(fields));
      const data = Uint8Array.from({ length: 36 }, (_, i) => (i % 3 === 0 ? 0 : i));
      const copy = callTxWithData(shaped, data);
      expect(Object.keys(copy)).toEqual(Object.keys(shaped));
      expect(observed(copy)).toEqual(observed(callTx({ ...fields, data })));
      // The original keeps its own data and data gas.
      expect(observed(shaped)).toEqual(observed(callTx(fields)));
    });
  }

  it('leaves a transaction of another kind as it is, and still copies it with other data', () => {
    const accessListTx = callTx({ ...feeMarket, type: 1, gasPrice: 1n, accessList: [] });
    expect(shapeCallTx(accessListTx)).toBe(accessListTx);
    const copy = callTxWithData(accessListTx, Uint8Array.of(9));
    expect(observed(copy)).toEqual(observed(callTx({ ...feeMarket, type: 1, gasPrice: 1n, data: Uint8Array.of(9) })));
  });
});
