import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
