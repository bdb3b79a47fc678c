import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '@ashlar/core';
import { createNode } from './createNode.js';
import { bannerInfo, formatBanner, formatEther, miningMode } from './banner.js';

describe('formatEther', () => {
  it('prints exact decimals without trailing zeros', () => {
    expect(formatEther(0n)).toBe('0');
    expect(formatEther(10_000n * 10n ** 18n)).toBe('10000');
    expect(formatEther(1_500_000_000_000_000_000n)).toBe('1.5');
    expect(formatEther(1n)).toBe('0.000000000000000001');
  });
});

describe('miningMode', () => {
  it('describes each combination', () => {
    expect(miningMode(true, 0)).toMatch(/automine/);
    expect(miningMode(false, 5)).toMatch(/every 5s/);
    expect(miningMode(true, 2)).toMatch(/automine.*every 2s/);
    expect(miningMode(false, 0)).toMatch(/manual/);
  });
});

describe('banner', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await createNode({ memory: true, chain: { accounts: 20 } });
  });
  afterAll(() => kernel.close());

  it('shows everything a developer needs, without colours when asked', async () => {
    const info = await bannerInfo(kernel.services, undefined, 'http://127.0.0.1:8545');
    const text = formatBanner(info, { color: false });
    expect(text).not.toContain('\x1b[');
    expect(text).toContain('Ashlar v0.1.0');
    expect(text).toMatch(/Storage: +memory/);
    expect(text).toMatch(/Chain id: +31337/);
    expect(text).toMatch(/Hardfork: +\w+/);
    expect(text).toMatch(/Gas limit: +30000000/);
    expect(text).toMatch(/Base fee: +1000000000 wei \(1 gwei\)/);
    expect(text).toMatch(/Mining: +automine/);
    expect(text).toContain('(0)  0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 (10000 ETH)');
    expect(text).toContain('(19) ');
    expect(text).toContain('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(text).toContain('test test test test test test test test test test test junk');
    expect(text).toContain("m/44'/60'/0'/0/{index}");
    expect(text).toContain('Listening on http://127.0.0.1:8545');
    expect(text.match(/ETH\)/g)).toHaveLength(20);
  });

  it('shows the WebSocket URL when one is served', async () => {
    const info = await bannerInfo(kernel.services, undefined, 'http://127.0.0.1:8545', 'ws://127.0.0.1:8545');
    const text = formatBanner(info, { color: false });
    expect(text).toContain('Listening on http://127.0.0.1:8545\nWebSocket on ws://127.0.0.1:8545\n');
  });

  it('uses colours for a TTY and shows a level path', async () => {
    const info = await bannerInfo(kernel.services, 'some/dir', 'http://x');
    const text = formatBanner({ ...info, head: 7n }, { color: true });
    expect(text).toContain('\x1b[');
    expect(text).toMatch(/\/some\/dir \(LevelDB, resumed at block 7\)/);
  });
});
