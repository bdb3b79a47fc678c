import { Message } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';

/**
 * Settles the hidden class of @ethereumjs/evm's Message before the write path runs hot: a
 * contract creation reassigns a message's `to`, `code` and `data` (EVM._executeCreate), and on a
 * fresh node the first one (an ERC-20 deploy after value transfers) made V8 throw away the
 * optimised _executeCall and _addToBalance, compiled while those fields were still written once
 * (V8 folds such "const" fields), and the creation's `to: undefined` widened the field's tracked
 * class (Address) and threw away runCall too. A throwaway message made with `to: undefined` and
 * then given each field again makes them general and mutable from the start; no message that
 * runs is touched.
 */
export function primeMessageShape(): void {
  const someone = new Address(new Uint8Array(20));
  const m = new Message({
    caller: someone,
    gasLimit: 0n,
    to: undefined,
    value: 0n,
    data: new Uint8Array(0),
    selfdestruct: new Map(),
    createdAddresses: new Set(),
  });
  m.code = m.data;
  m.data = new Uint8Array(0);
  m.to = new Address(new Uint8Array(20));
}
