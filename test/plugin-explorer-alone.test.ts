/**
 * The explorer reads contract state through core's services, not JSON-RPC by name (issue #22):
 * mounted without rpc:eth it still reads a contract's code, follows an EIP-1967 proxy by its
 * implementation slot, and follows a beacon by calling its implementation() (an eth_call through
 * the Executor). The code and slots are placed with hardhat_setCode / hardhat_setStorageAt; the
 * slot numbers are EIP-1967's. Routes are called with core's injectRoute (no server).
 */
import { createKernel, indexPlugin, injectRoute, type Kernel, type Plugin } from '@ashlar/core';
import { explorerPlugin } from '@ashlar/explorer';
import { devPlugin, evmMiningPlugin } from '@ashlar/rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const BEACON_SLOT = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50';
const PROXY = `0x${'11'.repeat(20)}`;
const BEACON_PROXY = `0x${'22'.repeat(20)}`;
const BEACON = `0x${'33'.repeat(20)}`;
const IMPL = `0x${'44'.repeat(20)}`;
/** Any non-empty runtime: STOP. */
const STUB = '0x00';
/** Returns IMPL as a word whatever it is called with: PUSH20 IMPL, MSTORE at 0, RETURN 32 bytes. */
const BEACON_CODE = `0x73${IMPL.slice(2)}60005260206000f3`;
const word = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

describe('the explorer without rpc:eth', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await createKernel({
      plugins: [evmMiningPlugin, devPlugin, indexPlugin(), explorerPlugin()] as Plugin<unknown>[],
    });
    expect(kernel.methods.get('eth_getCode')).toBeUndefined();
    const dev = (method: string, params: unknown[]) => kernel.request({ method, params });
    await dev('hardhat_setCode', [PROXY, STUB]);
    await dev('hardhat_setStorageAt', [PROXY, IMPLEMENTATION_SLOT, word(IMPL)]);
    await dev('hardhat_setCode', [BEACON, BEACON_CODE]);
    await dev('hardhat_setCode', [BEACON_PROXY, STUB]);
    await dev('hardhat_setStorageAt', [BEACON_PROXY, BEACON_SLOT, word(BEACON)]);
  });
  afterAll(() => kernel.close());

  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies read field by field
  const get = (path: string) => injectRoute<any>(kernel.routes, 'GET', path);

  it('reads code and follows an EIP-1967 implementation slot', async () => {
    const { status, body } = await get(`/api/v2/smart-contracts/${PROXY}`);
    expect(status).toBe(200);
    expect(body.deployed_bytecode).toBe(STUB);
    expect(body.proxy_type).toBe('eip1967');
    expect(body.implementations.map((i: { address_hash: string }) => i.address_hash.toLowerCase())).toEqual([IMPL]);
  });

  it('follows a beacon by calling its implementation()', async () => {
    const { status, body } = await get(`/api/v2/smart-contracts/${BEACON_PROXY}`);
    expect(status).toBe(200);
    expect(body.proxy_type).toBe('eip1967');
    expect(body.implementations.map((i: { address_hash: string }) => i.address_hash.toLowerCase())).toEqual([IMPL]);
  });

  it('an address without code is a 404', async () => {
    expect((await get(`/api/v2/smart-contracts/0x${'55'.repeat(20)}`)).status).toBe(404);
    // injectRoute answers a path nobody serves as the HTTP transport does
    expect(await get('/not/served')).toEqual({ status: 404, body: { message: 'Not found' }, headers: {} });
  });
});
