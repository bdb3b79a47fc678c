import type { KernelServices } from '@ashlar/core';
import { callAtHead, deployedCode, storageWord } from './chainReads.js';

type Hex = `0x${string}`;

/** Blockscout's `proxy_type` values for the patterns detected here (a beacon is its `eip1967` too). */
export type ProxyType = 'eip1967' | 'eip1822' | 'eip1167';

export interface ProxyInfo {
  type: ProxyType;
  /** Lower-case implementation addresses. */
  implementations: string[];
}

// EIP-1967: bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1), and the beacon slot.
const EIP1967_IMPLEMENTATION = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const EIP1967_BEACON = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50';
// EIP-1822: keccak256('PROXIABLE').
const EIP1822_PROXIABLE = '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7';
// EIP-1167 runtime code around the 20-byte implementation address.
const EIP1167_HEAD = '363d3d373d3d3d363d73';
const EIP1167_TAIL = '5af43d82803e903d91602b57fd5bf3';
/** `implementation()` — what an EIP-1967 beacon answers. */
const IMPLEMENTATION_SELECTOR = '0x5c60da1b';

const ZERO = /^0x0*$/;

function slotAddress(word: string): string | undefined {
  if (ZERO.test(word)) return undefined;
  return `0x${word.slice(-40).toLowerCase()}`;
}

/**
 * The proxy pattern of a contract and its implementation, read from its code and storage at the
 * head: EIP-1167 minimal proxies by code, EIP-1967 (implementation or beacon) and EIP-1822 by slot.
 */
export async function detectProxy(
  services: KernelServices,
  address: string,
  code?: Hex,
): Promise<ProxyInfo | undefined> {
  const runtime = code ?? (await deployedCode(services, address));
  const body = runtime.slice(2).toLowerCase();
  if (body.length === 2 * 45 && body.startsWith(EIP1167_HEAD) && body.endsWith(EIP1167_TAIL)) {
    return { type: 'eip1167', implementations: [`0x${body.slice(20, 60)}`] };
  }
  if (body.length === 0) return undefined;
  const slot = (s: string) => storageWord(services, address, s);
  const impl = slotAddress(await slot(EIP1967_IMPLEMENTATION));
  if (impl) return { type: 'eip1967', implementations: [impl] };
  const beacon = slotAddress(await slot(EIP1967_BEACON));
  if (beacon) {
    // a beacon that does not answer implementation() is not a proxy we can follow
    const out = await callAtHead(services, beacon, IMPLEMENTATION_SELECTOR as Hex);
    const viaBeacon = out.ok && out.data.length >= 66 ? slotAddress(out.data.slice(0, 66)) : undefined;
    if (viaBeacon) return { type: 'eip1967', implementations: [viaBeacon] };
  }
  const uups = slotAddress(await slot(EIP1822_PROXIABLE));
  if (uups) return { type: 'eip1822', implementations: [uups] };
  return undefined;
}
