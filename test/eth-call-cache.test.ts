import { Address, hexToBytes } from '@ethereumjs/util';
import { createNode } from 'ashlar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * eth_call answers are cached per (block, state, request): every way the state at a block can
 * change must show in the next call. Each check asks the same call twice, once cacheable and once
 * with an empty state-override object (never cached, so always run), and wants both to agree with
 * each other and with the value the change must produce.
 */

type Kernel = Awaited<ReturnType<typeof createNode>>;

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });

const X = '0x00000000000000000000000000000000000000aa';
const word = (n: bigint | number) => `0x${BigInt(n).toString(16).padStart(64, '0')}`;
const SLOT0 = word(0);
// Runtime codes (return one word, or revert with it):
// PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: storage slot 0
const RETURN_SLOT0 = '0x60005460005260206000f3';
// SELFBALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: the contract's balance
const RETURN_BALANCE = '0x4760005260206000f3';
// NUMBER PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: the block number
const RETURN_NUMBER = '0x4360005260206000f3';
// CREATE(0, 0, 0) PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: the address created (from the contract's nonce)
const RETURN_CREATED = '0x600060006000f060005260206000f3';
// PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 REVERT: reverts with storage slot 0
const REVERT_SLOT0 = '0x60005460005260206000fd';
// console.log() (selector 0x51973ec9, a STATICCALL to the console address), then slot 0 as RETURN_SLOT0
const CONSOLE_THEN_SLOT0 =
  '0x6351973ec9600052600060006004601c73000000000000000000636f6e736f6c652e6c6f675afa50' + RETURN_SLOT0.slice(2);

type Settled = { result: unknown } | { error: { code?: number; message?: string; data?: unknown } };

async function settle(p: Promise<unknown>): Promise<Settled> {
  try {
    return { result: await p };
  } catch (e) {
    const err = e as { code?: number; message?: string; data?: unknown };
    return { error: { code: err.code, message: err.message, data: err.data } };
  }
}

/** eth_call of `to` at `tag`, checked against the same call run fresh (an empty override object is never cached). */
async function call(tag = 'latest', to = X, data = '0x'): Promise<Settled> {
  const cached = await settle(rpc('eth_call', [{ to, data }, tag]));
  const again = await settle(rpc('eth_call', [{ to, data }, tag]));
  const fresh = await settle(rpc('eth_call', [{ to, data }, tag, {}]));
  expect(again).toEqual(cached);
  expect(cached).toEqual(fresh);
  return cached;
}

beforeEach(async () => {
  k = await createNode();
});
afterEach(() => k.close());

describe('eth_call result cache', () => {
  it('answers a repeated call on an unchanged head from the cache (same bytes)', async () => {
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(5)]);
    const target = { to: new Address(hexToBytes(X)) };
    const first = await k.executor.call(target, k.chain.head);
    const second = await k.executor.call(target, k.chain.head);
    expect(second).toBe(first);
    expect(await call()).toEqual({ result: word(5) });
  });

  it('sees hardhat_setStorageAt and anvil_setStorageAt', async () => {
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    expect(await call()).toEqual({ result: word(0) });
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(7)]);
    expect(await call()).toEqual({ result: word(7) });
    await rpc('anvil_setStorageAt', [X, SLOT0, word(8)]);
    expect(await call()).toEqual({ result: word(8) });
    expect(await rpc('eth_blockNumber')).toBe('0x0');
  });

  it('sees hardhat_setBalance and anvil_setBalance', async () => {
    await rpc('hardhat_setCode', [X, RETURN_BALANCE]);
    expect(await call()).toEqual({ result: word(0) });
    await rpc('hardhat_setBalance', [X, '0x64']);
    expect(await call()).toEqual({ result: word(100) });
    await rpc('anvil_setBalance', [X, '0x65']);
    expect(await call()).toEqual({ result: word(101) });
  });

  it('sees hardhat_setCode and anvil_setCode', async () => {
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(3)]);
    expect(await call()).toEqual({ result: '0x' });
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    expect(await call()).toEqual({ result: word(3) });
    await rpc('anvil_setCode', [X, RETURN_BALANCE]);
    expect(await call()).toEqual({ result: word(0) });
  });

  it('sees hardhat_setNonce and anvil_setNonce (the address CREATE makes)', async () => {
    await rpc('hardhat_setCode', [X, RETURN_CREATED]);
    const before = await call();
    await rpc('hardhat_setNonce', [X, '0x5']);
    const after5 = await call();
    await rpc('anvil_setNonce', [X, '0x6']);
    const after6 = await call();
    expect(new Set([before, after5, after6].map((s) => JSON.stringify(s))).size).toBe(3);
  });

  it('sees evm_revert back to the same block with the state before the edits', async () => {
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(1)]);
    const snap = await rpc<string>('evm_snapshot');
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(2)]);
    expect(await call()).toEqual({ result: word(2) });
    expect(await rpc('evm_revert', [snap])).toBe(true);
    expect(await call()).toEqual({ result: word(1) });
  });

  it('sees evm_revert over mined blocks', async () => {
    await rpc('hardhat_setCode', [X, RETURN_NUMBER]);
    const snap = await rpc<string>('evm_snapshot');
    await rpc('evm_mine');
    await rpc('hardhat_mine', ['0x10']);
    expect(await call()).toEqual({ result: word(17) });
    await rpc('evm_revert', [snap]);
    expect(await call()).toEqual({ result: word(0) });
  });

  it('sees new blocks (evm_mine, hardhat_mine, a mined transaction)', async () => {
    await rpc('hardhat_setCode', [X, RETURN_NUMBER]);
    expect(await call()).toEqual({ result: word(0) });
    await rpc('evm_mine');
    expect(await call()).toEqual({ result: word(1) });
    await rpc('hardhat_mine', ['0x100']);
    expect(await call()).toEqual({ result: word(257) });
    const from = k.chain.accounts[0].address.toString();
    await rpc('eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    expect(await call()).toEqual({ result: word(258) });
    expect(await call('0x1')).toEqual({ result: word(1) });
  });

  it('sees hardhat_reset and anvil_reset', async () => {
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(9)]);
    expect(await call()).toEqual({ result: word(9) });
    await rpc('hardhat_reset');
    expect(await call()).toEqual({ result: '0x' });
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(4)]);
    expect(await call()).toEqual({ result: word(4) });
    await rpc('anvil_reset');
    expect(await call()).toEqual({ result: '0x' });
  });

  it('sees anvil_loadState', async () => {
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(11)]);
    const dump = await rpc<string>('anvil_dumpState');
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(12)]);
    expect(await call()).toEqual({ result: word(12) });
    expect(await rpc('anvil_loadState', [dump])).toBe(true);
    expect(await call()).toEqual({ result: word(11) });
  });

  it('answers a block by its own state once the head edited after it has moved on', async () => {
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    await rpc('evm_mine');
    // block 1 is the head; the edit moves its state without a new block
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(21)]);
    const atHead = await call('0x1');
    await rpc('evm_mine');
    // block 1 is history now: its own state root, where slot 0 is still empty
    expect(await call('0x1')).toEqual({ result: word(0) });
    expect(await call('0x2')).toEqual({ result: word(21) });
    expect(atHead).toEqual({ result: word(21) });
  });

  it('gives a cached revert the same error (code 3, data, message)', async () => {
    await rpc('hardhat_setCode', [X, REVERT_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(0x2a)]);
    const out = await call();
    expect(out).toMatchObject({ error: { code: 3, data: word(0x2a) } });
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(0x2b)]);
    expect(await call()).toMatchObject({ error: { code: 3, data: word(0x2b) } });
  });

  it('prints console.log lines on every call, not only the first', async () => {
    await rpc('hardhat_setCode', [X, CONSOLE_THEN_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, SLOT0, word(6)]);
    const lines: unknown[] = [];
    k.events.on('console', (e) => lines.push(e));
    for (let i = 0; i < 3; i++) {
      expect(await rpc('eth_call', [{ to: X }, 'latest'])).toBe(word(6));
    }
    expect(lines).toHaveLength(3);
  });
});
