import { bytesToHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * Common function signatures. Without a verified contract's ABI, a call's `method` is the name
 * of its selector from this table, else the selector itself — as Blockscout falls back to its
 * signature database.
 */
const SIGNATURES = [
  // ERC-20
  'transfer(address,uint256)',
  'approve(address,uint256)',
  'transferFrom(address,address,uint256)',
  'increaseAllowance(address,uint256)',
  'decreaseAllowance(address,uint256)',
  'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
  // mint / burn in their usual spellings
  'mint(address,uint256)',
  'mint(uint256)',
  'mint(address)',
  'mint(address,uint256,uint256,bytes)',
  'mintBatch(address,uint256[],uint256[],bytes)',
  'safeMint(address)',
  'safeMint(address,uint256)',
  'burn(uint256)',
  'burn(address,uint256)',
  'burn(address,uint256,uint256)',
  'burnFrom(address,uint256)',
  // ERC-721 / ERC-1155
  'safeTransferFrom(address,address,uint256)',
  'safeTransferFrom(address,address,uint256,bytes)',
  'safeTransferFrom(address,address,uint256,uint256,bytes)',
  'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
  'setApprovalForAll(address,bool)',
  // batching and routers
  'multicall(bytes[])',
  'multicall(uint256,bytes[])',
  'aggregate((address,bytes)[])',
  'aggregate3((address,bool,bytes)[])',
  'execute(bytes,bytes[],uint256)',
  'execute(bytes,bytes[])',
  'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)',
  'swapExactETHForTokens(uint256,address[],address,uint256)',
  'swapExactTokensForETH(uint256,uint256,address[],address,uint256)',
  'swapTokensForExactTokens(uint256,uint256,address[],address,uint256)',
  'addLiquidity(address,address,uint256,uint256,uint256,uint256,address,uint256)',
  'addLiquidityETH(address,uint256,uint256,uint256,address,uint256)',
  'removeLiquidity(address,address,uint256,uint256,uint256,address,uint256)',
  'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))',
  'exactInput((bytes,address,uint256,uint256,uint256))',
  // wrapping, staking, ownership, ENS commit
  'deposit()',
  'withdraw(uint256)',
  'stake(uint256)',
  'unstake(uint256)',
  'claim()',
  'commit(bytes32)',
  'register(string,address,uint256,bytes32)',
  'transferOwnership(address)',
  'renounceOwnership()',
  'upgradeTo(address)',
  'upgradeToAndCall(address,bytes)',
  // what test suites call most
  'increment()',
  'add(uint256)',
  'set(uint256)',
  'deploy()',
  'deploy2(bytes32)',
];

const NAMES = new Map<string, string>();
const SELECTORS_BY_NAME = new Map<string, Uint8Array[]>();
for (const sig of SIGNATURES) {
  const selector = keccak_256(new TextEncoder().encode(sig)).subarray(0, 4);
  const name = sig.slice(0, sig.indexOf('('));
  NAMES.set(bytesToHex(selector), name);
  const list = SELECTORS_BY_NAME.get(name) ?? [];
  list.push(Uint8Array.from(selector));
  SELECTORS_BY_NAME.set(name, list);
}

/** `method` of a transaction: the name of a known selector, else the selector; null for creations and plain transfers. */
export function methodOf(to: Uint8Array | null | undefined, input: Uint8Array): string | null {
  if (!to || input.length < 4) return null;
  const selector = bytesToHex(input.subarray(0, 4));
  return NAMES.get(selector) ?? selector;
}

/** Selectors a `method` filter stands for: a known name's (all its overloads), or a `0x` selector. */
export function selectorsFor(method: string): Uint8Array[] | undefined {
  if (/^0x[0-9a-fA-F]{8}$/.test(method)) return [Uint8Array.from(Buffer.from(method.slice(2), 'hex'))];
  return SELECTORS_BY_NAME.get(method);
}
