/**
 * Before Byzantium a receipt holds the state root after its transaction, so runTx flushes the
 * state caches inside the call's checkpoint. A call on the head's VM left its sender's nonce and
 * the accounts it touched in the head state, and the next block mined them (a chain imported
 * after one eth_call failed its receipt-trie check). Calls there run on a scratch VM: the head
 * state after calls is the state without them, and the calls still run under the chain's rules.
 */
import { type Kernel, createKernel } from '@ashlar/core';
import { rpcPlugins } from '@ashlar/rpc';
import { afterEach, describe, expect, it } from 'vitest';

const ZERO = '0x0000000000000000000000000000000000000000';
const NOBODY = '0x00000000000000000000000000000000000c0ffe';
const DEV0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
// RETURNDATASIZE (Byzantium, EIP-211) PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN, as init code.
const RETURNDATASIZE_INIT = '0x3d60005260206000f3';
/** A time after any genesis these tests make (two days ahead of now). */
const MINED_AT = Math.floor(Date.now() / 1000) + 2 * 86_400;

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((k) => k.close()));
});

async function chainAt(hardfork: string): Promise<Kernel> {
  const k = await createKernel({ chain: { hardfork }, plugins: rpcPlugins() } as Parameters<typeof createKernel>[0]);
  kernels.push(k);
  return k;
}

const q = (k: Kernel, method: string, params: unknown[] = []) => k.request({ method, params });

/**
 * Mines the next block at a set time: from Cancun on, each block writes its timestamp into the
 * EIP-4788 ring, so two chains that mine in different seconds (or whose genesis fell in
 * different seconds) have different state roots for reasons that are not the calls'.
 */
async function mineAndRoot(k: Kernel): Promise<string> {
  await q(k, 'evm_setNextBlockTimestamp', [MINED_AT]);
  await q(k, 'evm_mine');
  const block = (await q(k, 'eth_getBlockByNumber', ['latest', false])) as { stateRoot: string };
  return block.stateRoot;
}

describe.each(['homestead', 'tangerineWhistle', 'spuriousDragon', 'byzantium', 'cancun'])(
  'eth_call on %s',
  (hardfork) => {
    it('leaves nothing in the head state that the next block mines', async () => {
      const plain = await chainAt(hardfork);
      const called = await chainAt(hardfork);
      for (const tag of ['latest', 'pending']) {
        await q(called, 'eth_call', [{ to: NOBODY, data: '0x70a08231' }, tag]);
        await q(called, 'eth_call', [{ from: DEV0, to: NOBODY, value: '0x1' }, tag]);
        await q(called, 'eth_estimateGas', [{ from: DEV0, to: NOBODY, value: '0x1' }, tag]);
      }
      expect(await q(called, 'eth_getTransactionCount', [ZERO, 'latest'])).toBe('0x0');
      expect(await q(called, 'eth_getTransactionCount', [DEV0, 'latest'])).toBe('0x0');
      const root = await mineAndRoot(called);
      expect(await q(called, 'eth_getTransactionCount', [ZERO, 'latest'])).toBe('0x0');
      expect(await q(called, 'eth_getTransactionCount', [DEV0, 'latest'])).toBe('0x0');
      expect(await q(called, 'eth_getBalance', [NOBODY, 'latest'])).toBe('0x0');
      expect(root).toBe(await mineAndRoot(plain));
    });

    it("runs under the chain's rules", async () => {
      const k = await chainAt(hardfork);
      const call = q(k, 'eth_call', [{ data: RETURNDATASIZE_INIT }, 'latest']);
      if (hardfork === 'byzantium' || hardfork === 'cancun') await expect(call).resolves.toBe(`0x${'00'.repeat(32)}`);
      else await expect(call).rejects.toThrow(/invalid opcode/);
    });
  },
);
