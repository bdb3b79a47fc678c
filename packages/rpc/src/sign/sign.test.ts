import { type Kernel, createKernel } from '@ashlar/core';
import { verifyMessage as ethersVerifyMessage, verifyTypedData as ethersVerifyTypedData } from 'ethers';
import { type Hex, hexToBytes, stringToHex, verifyMessage, verifyTypedData } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const A = () => k.chain.accounts[0].address.toString() as Hex;
const STRANGER = '0x00000000000000000000000000000000000000ab';

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => k.close());

const typed = {
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 31337,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826'] },
    to: [{ name: 'Bob', wallets: ['0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'] }],
    contents: 'Hello, Bob!',
    amount: '1000000000000000000000',
  },
} as const;
const eip712Domain = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

describe('eth_sign', () => {
  it('signs the EIP-191 personal message; viem and ethers recover the dev account', async () => {
    const message = 'hello ashlar';
    const sig = await rpc<Hex>('eth_sign', [A(), stringToHex(message)]);
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect([27, 28]).toContain(hexToBytes(sig)[64]);
    expect(await verifyMessage({ address: A(), message, signature: sig })).toBe(true);
    expect(ethersVerifyMessage(message, sig).toLowerCase()).toBe(A());
  });

  it('signs raw bytes', async () => {
    const sig = await rpc<Hex>('eth_sign', [A(), '0xdeadbeef']);
    expect(await verifyMessage({ address: A(), message: { raw: '0xdeadbeef' }, signature: sig })).toBe(true);
  });

  it('refuses an account the node holds no key for (-32000 unknown account)', async () => {
    await expect(rpc('eth_sign', [STRANGER, '0x00'])).rejects.toMatchObject({
      code: -32000,
      message: `unknown account ${STRANGER}`,
    });
  });

  it('rejects data that is not hex (-32602 naming it)', async () => {
    await expect(rpc('eth_sign', [A(), 'hello'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 1 \(data\)/,
    });
  });
});

describe('personal_sign', () => {
  it('takes (data, address) and gives the same signature as eth_sign', async () => {
    const data = stringToHex('gm');
    const sig = await rpc<Hex>('personal_sign', [data, A()]);
    expect(sig).toBe(await rpc('eth_sign', [A(), data]));
    expect(await verifyMessage({ address: A(), message: 'gm', signature: sig })).toBe(true);
    expect(ethersVerifyMessage('gm', sig).toLowerCase()).toBe(A());
  });

  it('rejects a malformed address (-32602 naming it)', async () => {
    await expect(rpc('personal_sign', ['0x00', '0x1'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 1 \(address\)/,
    });
  });
});

describe('eth_signTypedData_v4', () => {
  it('signs EIP-712 data with nested structs and arrays; viem and ethers verify it', async () => {
    const request = { ...typed, types: { EIP712Domain: eip712Domain, ...typed.types } };
    const sig = await rpc<Hex>('eth_signTypedData_v4', [A(), JSON.stringify(request)]);
    const message = { ...typed.message, amount: 10n ** 21n };
    expect(
      await verifyTypedData({ address: A(), ...typed, message, signature: sig } as Parameters<
        typeof verifyTypedData
      >[0]),
    ).toBe(true);
    const recovered = ethersVerifyTypedData(
      typed.domain,
      { Person: [...typed.types.Person], Mail: [...typed.types.Mail] },
      message,
      sig,
    );
    expect(recovered.toLowerCase()).toBe(A());
    // the same request as an object
    expect(await rpc('eth_signTypedData_v4', [A(), request])).toBe(sig);
  });

  it('rejects typed data that does not encode (-32602 naming it)', async () => {
    await expect(rpc('eth_signTypedData_v4', [A(), '{not json'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 1 \(typedData\)/,
    });
    const bad = { ...typed, message: { ...typed.message, to: 'nobody' } };
    await expect(rpc('eth_signTypedData_v4', [A(), bad])).rejects.toMatchObject({
      code: -32602,
      message: /typedData/,
    });
  });

  it('refuses an account the node holds no key for', async () => {
    await expect(rpc('eth_signTypedData_v4', [STRANGER, typed])).rejects.toMatchObject({ code: -32000 });
  });
});

describe('eth_accounts / eth_requestAccounts', () => {
  it('lists the dev accounts', async () => {
    const accounts = await rpc<string[]>('eth_requestAccounts');
    expect(accounts).toHaveLength(20);
    expect(accounts[0]).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(await rpc('eth_accounts')).toEqual(accounts);
  });
});
