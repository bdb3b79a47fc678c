/**
 * The transactions the tracing tests trace, run the same way on any node (Ashlar, Anvil): a few
 * hand-assembled contracts installed with `hardhat_setCode`/`anvil_setCode` (every gas figure
 * can be checked by hand) and the Solidity fixtures of test/contracts, sent by dev account 0.
 */
import { loadArtifact } from './contracts.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface RpcError {
  code: number;
  message: string;
  data?: Json;
}

/** A JSON-RPC client over HTTP that returns results and throws errors (with `.rpc` set). */
export function rpcClient(url: string) {
  let id = 0;
  const raw = async (method: string, params: unknown[] = []): Promise<{ result?: Json; error?: RpcError }> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return (await res.json()) as { result?: Json; error?: RpcError };
  };
  const call = async <T = Json>(method: string, params: unknown[] = []): Promise<T> => {
    const r = await raw(method, params);
    if (r.error) throw Object.assign(new Error(`${method}: ${r.error.message}`), { rpc: r.error });
    return r.result as T;
  };
  return { raw, call };
}

export type Rpc = ReturnType<typeof rpcClient>;

const hex = (s: string) => s.replaceAll(' ', '');
const word = (a: string) => a.slice(2);

export const ADDR = {
  A: '0x00000000000000000000000000000000000000aa',
  C: '0x00000000000000000000000000000000000000cc',
  R: '0x00000000000000000000000000000000000000dd',
  S: '0x00000000000000000000000000000000000000ee',
  B: '0x00000000000000000000000000000000000000b0',
} as const;

/** C: MSTORE 42 at 0; LOG1(0, 32, topic 1); RETURN(0, 32). Gas 3+3+6 + 3+3+3 + (375+375+8·32) + 3+3 = 1033. */
export const C_CODE = '0x602a600052600160206000a160206000f3';
/** R: REVERT(0, 0). Gas 3+3 = 6. */
export const R_CODE = '0x60006000fd';
/** S: SELFDESTRUCT(B). Gas 3 + 5000 + 2600 (B cold) + 25000 (value to an empty account) = 32603. */
export const S_CODE = hex(`0x73${word(ADDR.B)} ff`);
/** A: CALL C (32 bytes back), STATICCALL C (its LOG1 is a write: fails), DELEGATECALL R (reverts), CALL S; STOP. */
export const A_CODE = hex(
  '0x' +
    `6020 6000 6000 6000 6000 73${word(ADDR.C)} 61ffff f1 50` +
    `6000 6000 6000 6000 73${word(ADDR.C)} 61ffff fa 50` +
    `6000 6000 6000 6000 73${word(ADDR.R)} 61ffff f4 50` +
    `6000 6000 6000 6000 6000 73${word(ADDR.S)} 61ffff f1 50` +
    '00',
);

/** Selectors of the fixture contracts' functions used here. */
export const SEL = {
  increment: '0xd09de08a',
  fail: '0xa9cc4718',
  panic: '0x4700d305',
  deploy: '0x775c300c',
  deploy2: '0xdec3c14f',
} as const;

export const SALT = `0x${'00'.repeat(31)}07`;

export interface TraceChain {
  from: string;
  counter: string;
  factory: string;
  /** Transaction hashes by name. */
  tx: {
    nested: string;
    increment: string;
    fail: string;
    panic: string;
    deploy: string;
    deploy2: string;
    plainC: string;
  };
}

/** The receipt, waited for: Anvil may answer a send a moment before its receipt exists. */
async function receipt(rpc: Rpc, hash: string): Promise<Record<string, Json>> {
  for (let i = 0; i < 100; i++) {
    const r = await rpc.call<Record<string, Json> | null>('eth_getTransactionReceipt', [hash]);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`no receipt for ${hash} after 5 s`);
}

/** Installs the contracts and sends the traced transactions (automine: one block each). */
export async function buildTraceChain(rpc: Rpc): Promise<TraceChain> {
  const [from] = await rpc.call<string[]>('eth_accounts');
  for (const [a, code] of [
    [ADDR.A, A_CODE],
    [ADDR.C, C_CODE],
    [ADDR.R, R_CODE],
    [ADDR.S, S_CODE],
  ] as const)
    await rpc.call('hardhat_setCode', [a, code]);
  await rpc.call('hardhat_setBalance', [ADDR.S, '0x5']);
  // Explicit gas and EIP-1559 fees, so no node estimates or picks a fee of its own.
  const fees = { maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x3b9aca00' };
  // A transaction that fails is mined either way: Anvil answers its hash, Ashlar (as Hardhat)
  // an error whose data carries the hash.
  const send = async (tx: Record<string, string>) => {
    const r = await rpc.raw('eth_sendTransaction', [{ from, gas: '0xf4240', ...fees, ...tx }]);
    const hash = r.result ?? (r.error?.data as { txHash?: string } | undefined)?.txHash;
    if (typeof hash !== 'string') throw new Error(`eth_sendTransaction: ${r.error?.message}`);
    return hash;
  };
  const counterTx = await send({ data: loadArtifact('Counter').bytecode });
  const counter = (await receipt(rpc, counterTx)).contractAddress as string;
  const factoryTx = await send({ data: loadArtifact('Factory').bytecode });
  const factory = (await receipt(rpc, factoryTx)).contractAddress as string;
  const tx = {
    nested: await send({ to: ADDR.A }),
    increment: await send({ to: counter, data: SEL.increment }),
    fail: await send({ to: counter, data: SEL.fail }),
    panic: await send({ to: counter, data: SEL.panic }),
    deploy: await send({ to: factory, data: SEL.deploy }),
    deploy2: await send({ to: factory, data: SEL.deploy2 + word(SALT) }),
    plainC: await send({ to: ADDR.C }),
  };
  return { from, counter, factory, tx };
}
