/**
 * Core's typed state reads for plugin authors (issue #22): balanceAt, nonceAt, codeAt,
 * storageAt and readAccount, at the head (under the chain's lock) and at older blocks.
 * Expected values come from the chain's rules, not from our own RPC: Hardhat's dev accounts
 * start with 10000 ETH, a sender's nonce counts its transactions, and the contract below
 * stores 42 in slot 0 and deploys the 10-byte runtime written out here.
 */
import {
  balanceAt,
  codeAt,
  createKernel,
  definePlugin,
  defineRpcMethod,
  type Kernel,
  nonceAt,
  readAccount,
  storageAt,
  toQuantity,
} from '@ashlar/core';
import { address, blockTagOrHash, ethPlugin, LATEST, withDefault } from '@ashlar/rpc';
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

const [A, B] = DEV_ACCOUNTS.map((a) => a.address);
const TEN_THOUSAND_ETH = 10_000n * 10n ** 18n;
/** Runtime: return the word 42. */
const RUNTIME = '0x602a60005260206000f3';
/** Constructor: SSTORE(0, 42), then CODECOPY the runtime (10 bytes at offset 17) and RETURN it. */
const INIT = `0x602a600055600a6011600039600a6000f3${RUNTIME.slice(2)}` as const;

/** docs/plugins.md's `acme_` namespace: an account's balance and nonce at a block, in one call. */
const acme_account = defineRpcMethod({
  name: 'acme_account',
  params: [address('account'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: async (ctx, [account, block]) => {
    const chain = ctx.services.chain;
    const state = await readAccount(chain, account, block);
    return { balance: toQuantity(state.balance), nonce: toQuantity(state.nonce) };
  },
});
const acmePlugin = definePlugin({ name: 'acme', register: (ctx) => ctx.addMethods(acme_account) });

describe('typed state reads', () => {
  let kernel: Kernel;
  let contract: string;
  beforeAll(async () => {
    kernel = await createKernel({ plugins: [ethPlugin, acmePlugin] });
    await kernel.request({ method: 'eth_sendTransaction', params: [{ from: A, to: B, value: '0x1' }] });
    const hash = await kernel.request<string>({ method: 'eth_sendTransaction', params: [{ from: A, data: INIT }] });
    const receipt = await kernel.request<{ contractAddress: string; status: string }>({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    });
    expect(receipt.status).toBe('0x1');
    contract = receipt.contractAddress;
  });
  afterAll(() => kernel.close());

  it('reads balance and nonce at the head and at earlier blocks', async () => {
    const chain = kernel.chain;
    expect(chain.head.number).toBe(2n);
    expect(await balanceAt(chain, B)).toBe(TEN_THOUSAND_ETH + 1n);
    expect(await balanceAt(chain, B, 0n)).toBe(TEN_THOUSAND_ETH);
    expect(await balanceAt(chain, B, 'earliest')).toBe(TEN_THOUSAND_ETH);
    expect(await nonceAt(chain, A)).toBe(2n);
    expect(await nonceAt(chain, A, 1n)).toBe(1n);
    expect(await nonceAt(chain, A, { kind: 'hash', hash: chain.genesis.hash })).toBe(0n);
    // A's balance went down by the value and the gas: below its start, above zero.
    const a = await balanceAt(chain, A);
    expect(a < TEN_THOUSAND_ETH - 1n && a > 0n).toBe(true);
  });

  it('reads code and storage, and an untouched account as zeros', async () => {
    const chain = kernel.chain;
    expect(bytesToHex(await codeAt(chain, contract))).toBe(RUNTIME);
    expect(await codeAt(chain, contract, 1n)).toEqual(new Uint8Array());
    const word = await storageAt(chain, contract, 0n);
    expect(word.length).toBe(32);
    expect(word[31]).toBe(42);
    expect(await storageAt(chain, contract, '0x00', 1n)).toEqual(new Uint8Array(32));
    const nobody = await readAccount(chain, `0x${'11'.repeat(20)}`);
    expect([nobody.nonce, nobody.balance]).toEqual([0n, 0n]);
    // keccak256 of empty code: every account without code has it.
    expect(bytesToHex(nobody.codeHash)).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect((await readAccount(chain, contract)).nonce).toBe(1n); // EIP-161: contracts start at nonce 1
  });

  it('refuses a bad address and a missing block with clear errors', async () => {
    const chain = kernel.chain;
    await expect(balanceAt(chain, '0x1234')).rejects.toMatchObject({
      code: 'ASHLAR_ERR_RPC_INVALID_PARAMS',
      message: expect.stringMatching(/address must be 0x and 40 hex digits/),
    });
    await expect(balanceAt(chain, B, 99n)).rejects.toMatchObject({ code: 'ASHLAR_ERR_CHAIN_BLOCK_NOT_FOUND' });
  });

  it('a head read waits for the chain lock, and still reads the block it asked for', async () => {
    const chain = kernel.chain;
    let release!: () => void;
    const held = chain.exclusive(() => new Promise<void>((r) => (release = r)));
    let done = false;
    const read = balanceAt(chain, B).then((v) => {
      done = true;
      return v;
    });
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    release();
    await held;
    expect(await read).toBe(TEN_THOUSAND_ETH + 1n);
  });

  it('an acme_ RPC namespace answers from them, with parsed parameters', async () => {
    expect(await kernel.request({ method: 'acme_account', params: [B] })).toEqual({
      balance: toQuantity(TEN_THOUSAND_ETH + 1n),
      nonce: '0x0',
    });
    expect(await kernel.request({ method: 'acme_account', params: [A, '0x1'] })).toMatchObject({ nonce: '0x1' });
    await expect(kernel.request({ method: 'acme_account', params: ['0x12'] })).rejects.toMatchObject({
      code: -32602,
      ashlarCode: 'ASHLAR_ERR_RPC_INVALID_PARAMS',
      message: expect.stringMatching(/^invalid argument 0 \(account\): /),
    });
  });
});
