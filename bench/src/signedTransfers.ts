// Value transfers from dev account 0 to fresh addresses, signed and encoded for
// eth_sendRawTransaction: what the in-process write-path figures send.
import type { Kernel } from '@ashlar/core';
import { createTx } from '@ethereumjs/tx';

/** `count` raw EIP-1559 transfers of 1 wei with nonces `from`, `from + 1`, …, as 0x-hex. */
export function signedTransfers(kernel: Kernel, count: number, from = 0): string[] {
  const acct = kernel.chain.accounts[0];
  const raws: string[] = [];
  for (let i = from; i < from + count; i++) {
    const tx = createTx(
      {
        type: 2,
        nonce: i,
        to: `0x${(0x100000 + i).toString(16).padStart(40, '0')}`,
        value: 1n,
        gasLimit: 21000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n,
        chainId: 31337n,
      },
      { common: kernel.chain.common },
    ).sign(acct.privateKey);
    raws.push(`0x${Buffer.from(tx.serialize()).toString('hex')}`);
  }
  return raws;
}
