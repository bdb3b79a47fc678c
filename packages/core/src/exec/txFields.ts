import { bigIntToHex, bytesToHex } from '@ethereumjs/util';
import type { CallRequest } from './types.js';

/**
 * The list fields of a call request in the JSON form `createTx` takes: shared by the
 * transactions eth_call/eth_estimateGas run and those eth_simulateV1 runs, which differ only in
 * how they choose the type and fees.
 */
export function accessListField(req: CallRequest): { address: string; storageKeys: string[] }[] {
  return (req.accessList ?? []).map((a) => ({
    address: a.address.toString(),
    storageKeys: a.storageKeys.map((k) => bytesToHex(k)),
  }));
}

export function authorizationListField(req: CallRequest): Record<string, string>[] {
  return (req.authorizationList ?? []).map((a) => ({
    chainId: bigIntToHex(a.chainId),
    address: a.address.toString(),
    nonce: bigIntToHex(a.nonce),
    yParity: bigIntToHex(a.yParity),
    r: bigIntToHex(a.r),
    s: bigIntToHex(a.s),
  }));
}
