import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { injectMethod, injectRoute, methodCaller, toQuantity } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { start as startCustom } from './custom-method.js';
import { start as startPersistent } from './persistent-node.js';

const post = async (url: string, method: string, params: unknown[] = []) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
};

describe('examples', () => {
  it('custom-method: the plugin method answers, and bad params name the parameter', async () => {
    const n = await startCustom();
    try {
      const a0 = n.kernel.chain.accounts[0].address.toString();
      expect((await post(n.url, 'myapp_balanceInEther', [a0])).result).toBe('10000');
      const bad = await post(n.url, 'myapp_balanceInEther', ['0x12']);
      expect(bad.error?.code).toBe(-32602);
      expect(bad.error?.message).toContain('account');
    } finally {
      await n.close();
    }
  });

  it('persistent-node: a restarted node finds its chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ashlar-example-'));
    try {
      const first = await startPersistent(join(dir, 'chain'));
      const [a0, a1] = first.kernel.chain.accounts.map((a) => a.address.toString());
      const sent = await post(first.url, 'eth_sendTransaction', [{ from: a0, to: a1, value: '0x2a' }]);
      await first.close();
      const second = await startPersistent(join(dir, 'chain'));
      try {
        expect((await post(second.url, 'eth_blockNumber')).result).toBe('0x1');
        const receipt = (await post(second.url, 'eth_getTransactionReceipt', [sent.result])).result as {
          status: string;
        };
        expect(receipt.status).toBe('0x1');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/plugins.md examples', () => {
  it('acme-namespace: acme_account and acme_head read chain state, typed, and bad params name the parameter', async () => {
    const { start } = await import('./acme-namespace.js');
    const kernel = await start();
    try {
      const rpc = methodCaller(kernel);
      const [from, to] = await rpc.call('eth_accounts');
      // The dev accounts' genesis balance (10,000 ether), nonce 0 and no code.
      expect(await rpc.call('acme_account', [from])).toEqual({
        balance: toQuantity(10n ** 22n),
        nonce: '0x0',
        codeSize: 0,
      });
      await rpc.call('eth_sendTransaction', [{ from, to, value: '0x2a' }]);
      const head = await rpc.call('acme_head');
      const block = await rpc.call('eth_getBlockByNumber', ['latest', false]);
      expect(head).toEqual({ number: '0x1', hash: block?.hash, transactions: 1 });
      // The recipient at the head and at genesis (the block parameter is honoured).
      expect((await rpc.call('acme_account', [to])).balance).toBe(toQuantity(10n ** 22n + 42n));
      expect((await rpc.call('acme_account', [to, '0x0'])).balance).toBe(toQuantity(10n ** 22n));
      // A contract: hardhat_setCode is in rpcPlugins (rpc:dev); codeSize counts its bytes.
      await rpc.call('hardhat_setCode', [`0x${'ab'.repeat(20)}`, '0x600160005260206000f3']);
      expect((await rpc.call('acme_account', [`0x${'ab'.repeat(20)}`])).codeSize).toBe(10);
      const bad = await injectMethod(kernel, 'acme_account', ['0x12']);
      expect(bad.error?.code).toBe(-32602);
      expect(bad.error?.message).toContain('(account)');
    } finally {
      await kernel.close();
    }
  });

  it('explorer-transfers: the route lists transfers newest first, pages by cursor, and follows evm_revert', async () => {
    const { start } = await import('./explorer-transfers.js');
    const kernel = await start();
    try {
      const rpc = methodCaller(kernel);
      const [a, b, c] = await rpc.call('eth_accounts');
      const snap = await rpc.call('evm_snapshot');
      const hashes: string[] = [];
      for (const value of ['0x1', '0x2', '0x3'] as const)
        hashes.push(await rpc.call('eth_sendTransaction', [{ from: a, to: b, value }]));
      await rpc.call('eth_sendTransaction', [{ from: a, to: c, value: '0x0' }]); // no value: not a transfer
      const url = `/api/v2/acme/addresses/${b}/value-transfers`;
      const page = await injectRoute<{
        items: { hash: string; value: string; block_number: number }[];
        next_page_params: unknown;
      }>(kernel.routes, 'GET', url);
      expect(page.status).toBe(200);
      expect(page.body.items.map((t) => [t.hash, t.value, t.block_number])).toEqual([
        [hashes[2], '3', 3],
        [hashes[1], '2', 2],
        [hashes[0], '1', 1],
      ]);
      expect(page.body.next_page_params).toBeNull();
      // The sender's list holds the same transfers; the zero-value one is in neither.
      const sent = await injectRoute<{ items: unknown[] }>(
        kernel.routes,
        'GET',
        `/api/v2/acme/addresses/${a}/value-transfers`,
      );
      expect(sent.body.items).toHaveLength(3);
      const older = await injectRoute<{ items: { block_number: number }[] }>(
        kernel.routes,
        'GET',
        `${url}?block_number=3&index=0`,
      );
      expect(older.body.items.map((t) => t.block_number)).toEqual([2, 1]);
      // Bad input is Blockscout's 422 naming the parameter.
      const badCursor = await injectRoute<{ errors: { source: { pointer: string } }[] }>(
        kernel.routes,
        'GET',
        `${url}?block_number=x&index=0`,
      );
      expect(badCursor.status).toBe(422);
      expect(badCursor.body.errors[0].source.pointer).toBe('/block_number');
      expect((await injectRoute(kernel.routes, 'GET', '/api/v2/acme/addresses/0x12/value-transfers')).status).toBe(422);
      // evm_revert removes the blocks, and their transfers with them, in one batch.
      expect(await rpc.call('evm_revert', [snap])).toBe(true);
      expect((await injectRoute<{ items: unknown[] }>(kernel.routes, 'GET', url)).body.items).toEqual([]);
      const again = await rpc.call('eth_sendTransaction', [{ from: a, to: b, value: '0x7' }]);
      const after = await injectRoute<{ items: { hash: string; block_number: number }[] }>(kernel.routes, 'GET', url);
      expect(after.body.items.map((t) => [t.hash, t.block_number])).toEqual([[again, 1]]);
    } finally {
      await kernel.close();
    }
  });

  it('mempool-policy: the replaced pool refuses transactions to a blocked address, in its kernel only', async () => {
    const { start, BLOCKED_CODE } = await import('./mempool-policy.js');
    const blocked = '0x000000000000000000000000000000000000dead';
    const kernel = await start([blocked]);
    const plain = await start([]);
    try {
      const rpc = methodCaller(kernel);
      const [from, to] = await rpc.call('eth_accounts');
      const refused = await injectMethod(kernel, 'eth_sendTransaction', [{ from, to: blocked, value: '0x1' }]);
      expect(refused.error).toEqual({
        code: BLOCKED_CODE,
        message: `transactions to ${blocked} are not accepted`,
        data: { to: blocked },
      });
      await expect(
        kernel.request({ method: 'eth_sendTransaction', params: [{ from, to: blocked, value: '0x1' }] }),
      ).rejects.toMatchObject({ ashlarCode: 'ACME_ERR_BLOCKED' });
      expect(await rpc.call('eth_blockNumber')).toBe('0x0');
      expect(await rpc.call('eth_sendTransaction', [{ from, to, value: '0x1' }])).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await rpc.call('eth_blockNumber')).toBe('0x1');
      // The other kernel keeps the kernel's own pool.
      expect(await methodCaller(plain).call('eth_sendTransaction', [{ from, to: blocked, value: '0x1' }])).toMatch(
        /^0x/,
      );
    } finally {
      await kernel.close();
      await plain.close();
    }
  });
});
