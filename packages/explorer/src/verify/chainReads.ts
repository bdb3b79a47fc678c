import { codeAt, isAshlarError, type KernelServices, storageAt, toRpcError } from '@ashlar/core';
import { Address, bytesToHex, hexToBytes } from '@ethereumjs/util';

type Hex = `0x${string}`;

/**
 * The explorer's reads of contract state, through core's services rather than JSON-RPC by name:
 * no hex round trip, and no hidden need for rpc:eth beside the explorer (issue #22).
 */

/** Runtime code at the head, `0x` for none. */
export async function deployedCode(services: KernelServices, address: string): Promise<Hex> {
  return bytesToHex(await codeAt(services.chain, address)) as Hex;
}

/** A storage word at the head, 32 bytes as hex. */
export async function storageWord(services: KernelServices, address: string, slot: string): Promise<Hex> {
  return bytesToHex(await storageAt(services.chain, address, slot)) as Hex;
}

export interface CallOutcome {
  ok: boolean;
  data: Hex;
  code?: number;
  message?: string;
}

/** eth_call at the head through the kernel's Executor: return data, or the revert data and geth's message. */
export async function callAtHead(services: KernelServices, to: string, data: Hex, from?: string): Promise<CallOutcome> {
  try {
    const out = await services.executor.call(
      {
        to: new Address(hexToBytes(to as Hex)),
        data: hexToBytes(data),
        ...(from ? { from: new Address(hexToBytes(from as Hex)) } : {}),
      },
      services.chain.head,
    );
    return { ok: true, data: bytesToHex(out) as Hex };
  } catch (e) {
    if (!isAshlarError(e)) throw e;
    const err = toRpcError(e);
    const raw = typeof err.data === 'string' && err.data.startsWith('0x') ? (err.data as Hex) : '0x';
    return { ok: false, data: raw, code: err.code, message: err.message };
  }
}
