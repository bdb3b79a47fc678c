// ERC-1155 holder counts: a holder of several ids of one token counts once, as Blockscout's
// `holders_count` (distinct addresses with a positive balance of any id). Checked against the
// token's own balanceOf, through moves that add and drop ids, a revert, and a rebuild.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kernel, indexOf } from '@ashlar/core';
import { levelStorage } from '@ashlar/storage-level';
import { Interface } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';
import { ChainDriver, type Hex, apiOk, explorerKernel } from './helpers/explorerChain.js';
import { dumpIndex } from './helpers/indexDump.js';

const multi = new Interface(loadArtifact('MultiToken').abi);
const IDS = [1n, 2n, 3n];

/** Distinct accounts holding a positive balance of any id, asked of the contract itself. */
async function holdersByBalanceOf(k: Kernel, token: Hex, accounts: Hex[]): Promise<number> {
  let n = 0;
  for (const who of accounts) {
    let holds = false;
    for (const id of IDS) {
      const data = multi.encodeFunctionData('balanceOf', [who, id]);
      const out = await k.request<Hex>({ method: 'eth_call', params: [{ to: token, data }, 'latest'] });
      if (BigInt(out) > 0n) holds = true;
    }
    if (holds) n++;
  }
  return n;
}

const holdersCount = async (k: Kernel, token: Hex) => {
  const t = await apiOk(k, `/api/v2/tokens/${token}`);
  const counters = await apiOk(k, `/api/v2/tokens/${token}/counters`);
  expect(t.holders).toBe(t.holders_count);
  expect(counters.token_holders_count).toBe(t.holders_count);
  return Number(t.holders_count);
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('ERC-1155 holders_count', () => {
  it('counts distinct holders, not (holder, id) pairs, live, after a revert and after a rebuild', async () => {
    const path = mkdtempSync(join(tmpdir(), 'ashlar-1155-'));
    dirs.push(path);
    const k = await explorerKernel({ storage: levelStorage({ path }) });
    let closed = false;
    try {
      const d = new ChainDriver(k);
      const [a, b, c] = d.accounts;
      const who = d.accounts.slice(0, 5);
      const { address: token } = await d.deploy('MultiToken', ['Multi', 'MLT']);
      const expectMatch = async (expected: number) => {
        expect(await holdersByBalanceOf(k, token, who)).toBe(expected);
        expect(await holdersCount(k, token)).toBe(expected);
      };

      // a holds three ids, b one: 2 holders (4 pairs).
      await d.call('MultiToken', token, 'mintBatch', [a, IDS, [5n, 5n, 5n]]);
      await d.call('MultiToken', token, 'mint', [b, 1n, 2n]);
      await expectMatch(2);

      const index = indexOf(k);
      if (!index) throw new Error('no index');
      const before = await dumpIndex(index);
      const snap = await k.request({ method: 'evm_snapshot', params: [] });

      // a gives all of id 1 away: still a holder (ids 2 and 3); b gains a second id of nothing new.
      await d.call('MultiToken', token, 'safeTransferFrom', [a, b, 1n, 5n, '0x']);
      await expectMatch(2);
      // a gives its other ids to c: a stops holding, c starts.
      await d.call('MultiToken', token, 'safeBatchTransferFrom', [a, c, [2n, 3n], [5n, 5n], '0x']);
      await expectMatch(2);
      // c burns one id and keeps the other; then b burns everything it has: 1 holder.
      await d.call('MultiToken', token, 'burn', [c, 2n, 5n], { from: c });
      await d.call('MultiToken', token, 'burn', [b, 1n, 7n], { from: b });
      await expectMatch(1);

      expect(await k.request({ method: 'evm_revert', params: [snap] })).toBe(true);
      expect(await dumpIndex(index)).toEqual(before);
      await expectMatch(2);

      await d.call('MultiToken', token, 'safeBatchTransferFrom', [a, c, [2n, 3n], [1n, 5n], '0x']);
      await expectMatch(3);
      const live = await dumpIndex(index);
      await k.close();
      closed = true;

      const k2 = await explorerKernel({ storage: levelStorage({ path }), explorer: { reindex: true } });
      try {
        expect(await dumpIndex(indexOf(k2) as NonNullable<ReturnType<typeof indexOf>>)).toEqual(live);
        expect(await holdersCount(k2, token)).toBe(3);
      } finally {
        await k2.close();
      }
    } finally {
      if (!closed) await k.close();
    }
  });
});
