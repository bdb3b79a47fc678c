import {
  AshlarError,
  ErrorCodes,
  type KernelServices,
  defineRpcMethod,
  signPersonalMessage,
  toData,
} from '@ashlar/core';
import type { Address } from '@ethereumjs/util';
import { address, data } from '../params/index.js';
import { devKeyOf } from '../shared/sign.js';

/** The node's key for `addr`, or geth's -32000 `unknown account`. */
export function signerKey(services: KernelServices, addr: Address): Uint8Array {
  const key = devKeyOf(services, addr);
  if (!key) throw new AshlarError(ErrorCodes.UNKNOWN_ACCOUNT, `unknown account ${addr.toString()}`);
  return key;
}

/**
 * geth's eth_sign: signs keccak("\x19Ethereum Signed Message:\n" + len + data) with a dev key;
 * 65 bytes r ‖ s ‖ v with v 27 or 28.
 */
export const eth_sign = defineRpcMethod({
  name: 'eth_sign',
  params: [address('address'), data('data')],
  handler: (ctx, [addr, message]) => toData(signPersonalMessage(message, signerKey(ctx.services, addr))),
});

/** eth_sign with the parameters the other way round (data, address), as wallets take them. */
export const personal_sign = defineRpcMethod({
  name: 'personal_sign',
  params: [data('data'), address('address')],
  handler: (ctx, [message, addr]) => toData(signPersonalMessage(message, signerKey(ctx.services, addr))),
});
