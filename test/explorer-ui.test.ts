// The web explorer (packages/explorer-ui) in a real browser: Debian's Chromium driven by
// playwright-core against a node started in-process. Every page is checked against what JSON-RPC
// says of the same chain, the home page against a new block and an evm_revert, every page with
// axe-core, and every request the pages make against the node's origin.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kernel } from '@ashlar/core';
import { createNode, type RunningServer, startServer } from 'ashlar';
import { formatEther, formatUnits, getAddress, Interface } from 'ethers';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../packages/cli/src/args.js';
import { buildExplorerUi } from '../packages/explorer-ui/scripts/build.mjs';
import { readSources } from './contracts/compile.js';
import { compile, writeHardhatBuild } from './helpers/buildInfo.js';
import { loadArtifact } from './helpers/contracts.js';
import { type Body, ChainDriver, type Hex } from './helpers/explorerChain.js';

const CHROMIUM = process.env.ASHLAR_CHROMIUM ?? '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser) {
  console.warn(
    `explorer-ui browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set ASHLAR_CHROMIUM)`,
  );
}

/** Screenshots: CI's artifact folder when it gives one, else a folder under the OS temp dir. */
const shots = join(process.env.CI_ARTIFACTS ?? tmpdir(), 'ashlar-explorer-ui');

/** ETH as the app shows it ("1,234.5 ETH") and as ethers formats it ("1234.5"), compared as numbers' text. */
const plain = (s: string) => s.replace(/,/g, '').replace(/\.0$/, '').replace(/ ETH$/, '').trim();

let k: Kernel;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let profile: string;
let buildDir: string;
let tokenAbi: unknown;
let d: ChainDriver;
let token: Hex;
let transferTx: Hex;
let revertedTx: Hex;
let factoryTx: Hex;
const requests: string[] = [];
const consoleErrors: string[] = [];
/** newHeads notifications the pages received over the node's WebSocket. */
let headsPushed = 0;

const rpc = <T = Body>(method: string, params: unknown[] = []): Promise<T> => k.request<T>({ method, params });

async function open(path: string): Promise<void> {
  await page.goto(server.url + path);
}

/** The text of the first element matching `selector`, once it shows something other than `notYet`. */
async function textOf(selector: string, notYet = ''): Promise<string> {
  const handle = await page.waitForFunction(
    ([sel, pending]) => {
      const el = document.querySelector(sel as string) as HTMLElement | null;
      const t = el?.innerText.trim();
      return t && t !== pending ? t : false;
    },
    [selector, notYet],
    { timeout: 10_000 },
  );
  return (await handle.jsonValue()) as string;
}

/** axe-core on the page as shown: no serious or critical violation. */
async function expectAccessible(name: string): Promise<void> {
  const require = createRequire(import.meta.url);
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run: () => Promise<{ violations: Body[] }> } }).axe.run();
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  })) as { id: string; impact: string; nodes: number; help: string }[];
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${name}: ${JSON.stringify(bad)}`).toEqual([]);
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

// The app as `npm start` builds it (esbuild, well under a second), so the test never serves a stale one.
beforeAll(async () => {
  await buildExplorerUi();
}, 60_000);

describe.skipIf(!hasBrowser)('web explorer in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    // Token's build info, so the explorer verifies it (--artifacts): decoded calls, events, source.
    buildDir = mkdtempSync(join(tmpdir(), 'ashlar-explorer-ui-build-'));
    const tokenSource = { 'Token.sol': readSources()['Token.sol']! };
    const compiled = compile(tokenSource);
    tokenAbi = compiled.output.contracts['Token.sol'].Token.abi;
    k = await createNode({ artifacts: writeHardhatBuild(buildDir, compiled) });
    server = await startServer(k, { port: 0 });
    d = new ChainDriver(k);
    const [, b, c] = d.accounts;
    ({ address: token } = await d.deploy('Token', ['Ash Token', 'ASH', 10n ** 24n]));
    transferTx = await d.call('Token', token, 'transfer', [b, 100n * 10n ** 18n]);
    await d.send({ to: c, value: 12n * 10n ** 17n });
    // More than c holds: explicit gas so the estimate does not refuse it before it is mined.
    revertedTx = await d.call('Token', token, 'transfer', [d.accounts[0], 10n ** 30n], { from: c, gas: 100_000n });
    // A contract that creates one: an internal transaction.
    const { address: factory } = await d.deploy('Factory');
    factoryTx = await d.call('Factory', factory, 'deploy', []);

    const { chromium } = await import('playwright-core');
    profile = mkdtempSync(join(tmpdir(), 'ashlar-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (r) => requests.push(r.url()));
    page.on('websocket', (ws) => {
      requests.push(ws.url());
      ws.on('framereceived', (f) => {
        if (String(f.payload).includes('"eth_subscription"')) headsPushed++;
      });
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
    await server?.close();
    await k?.close();
  });

  it('home shows the head block and the latest transactions as JSON-RPC has them', async () => {
    await open('/');
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const n = Number(head.number);
    await textOf(`[data-block="${n}"]`);
    const blocks = await textOf('[data-stat="blocks"]', '…');
    // Blockscout counts blocks from genesis: head + 1.
    expect(blocks.replace(/,/g, '')).toBe(String(n + 1));
    const txRow = await textOf(`[data-tx="${revertedTx}"]`);
    expect(txRow).toContain('Failed');
    await expectAccessible('home');
    // The README's picture (docs/explorer-ui.png): the top of the home page.
    await page.screenshot({ path: join(shots, 'readme.png'), clip: { x: 0, y: 0, width: 1280, height: 600 } });
  });

  it('a new block appears without a reload, and evm_revert takes it away', async () => {
    await open('/');
    const before = Number(await rpc<Hex>('eth_blockNumber'));
    await textOf(`[data-block="${before}"]`);
    let reloaded = false;
    page.once('load', () => {
      reloaded = true;
    });
    const snapshot = await rpc<Hex>('evm_snapshot');
    const pushedBefore = headsPushed;
    await rpc('evm_mine');
    const mined = await rpc('eth_getBlockByNumber', ['latest', false]);
    expect(Number(mined.number)).toBe(before + 1);
    await page.locator(`[data-block="${before + 1}"]`).waitFor({ timeout: 10_000 });
    // The row's hash link carries the full hash (the text is shortened).
    expect(await page.locator(`[data-block="${before + 1}"] a[href^="/block/0x"]`).getAttribute('title')).toBe(
      mined.hash,
    );
    await page.screenshot({ path: join(shots, 'home-live.png') });
    // The page heard of the block over the node's WebSocket (newHeads), not only by polling.
    await expect.poll(() => headsPushed, { timeout: 5000 }).toBeGreaterThan(pushedBefore);
    expect(await rpc<boolean>('evm_revert', [snapshot])).toBe(true);
    expect(Number(await rpc<Hex>('eth_blockNumber'))).toBe(before);
    await page.locator(`[data-block="${before + 1}"]`).waitFor({ state: 'detached', timeout: 10_000 });
    expect(reloaded).toBe(false);
  });

  it('block page: hash, parent and gas as eth_getBlockByNumber says', async () => {
    const receipt = await rpc('eth_getTransactionReceipt', [transferTx]);
    const block = await rpc('eth_getBlockByNumber', [receipt.blockNumber, false]);
    const n = Number(block.number);
    await open(`/block/${n}`);
    expect(await textOf('h1')).toBe(`Block ${n}`);
    const details = await textOf('.details');
    expect(details).toContain(block.hash);
    expect(details).toContain(block.parentHash);
    const gas = await textOf('[data-field="gas-used"]');
    expect(gas.split(' / ')[0]!.replace(/,/g, '')).toBe(BigInt(block.gasUsed).toString());
    await textOf(`[data-tx="${transferTx}"]`);
    await expectAccessible('block');
  });

  it('transaction page: status, parties, value, fee, gas, method, token transfer and logs', async () => {
    const tx = await rpc('eth_getTransactionByHash', [transferTx]);
    const receipt = await rpc('eth_getTransactionReceipt', [transferTx]);
    await open(`/tx/${transferTx}`);
    expect(await textOf('[data-field="status"]')).toContain(receipt.status === '0x1' ? 'Success' : 'Failed');
    const details = await textOf('.details');
    expect(details).toContain(transferTx);
    expect(details.toLowerCase()).toContain(tx.from.toLowerCase());
    expect(details.toLowerCase()).toContain(tx.to.toLowerCase());
    expect(await textOf('[data-field="block"]')).toContain(String(Number(receipt.blockNumber)));
    expect(plain(await textOf('[data-field="value"]'))).toBe(plain(formatEther(BigInt(tx.value))));
    const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
    expect(plain(await textOf('[data-field="fee"]'))).toBe(plain(formatEther(fee)));
    const [used, limit] = (await textOf('[data-field="gas"]')).split(' / ').map((s) => s.replace(/,/g, ''));
    expect([used, limit]).toEqual([BigInt(receipt.gasUsed).toString(), BigInt(tx.gas).toString()]);
    // Verified from the build info: the call decoded as ethers decodes the transaction's input.
    const call = new Interface(loadArtifact('Token').abi).parseTransaction({ data: tx.input })!;
    const method = await textOf('[data-field="method"]', 'transfer');
    expect(method).toContain(`${call.name}(${call.fragment.inputs.map((i) => `${i.type} ${i.name}`).join(', ')})`);
    for (const arg of call.args) expect(method.toLowerCase()).toContain(String(arg).toLowerCase());
    // Token transfers (the default tab): the Transfer log's amount in token units.
    const transfer = new Interface(loadArtifact('Token').abi).parseLog(receipt.logs[0])!;
    const amount = formatUnits(transfer.args[2] as bigint, 18).replace(/\.0$/, '');
    expect(await textOf('section[aria-label="Transaction activity"] tbody tr')).toContain(`${amount} ASH`);
    await expectAccessible('tx');
    // Logs tab: the receipt's topics and data.
    await page.getByRole('link', { name: 'Logs' }).click();
    const logs = await textOf('.logs');
    for (const topic of receipt.logs[0].topics as string[]) expect(logs).toContain(topic);
    expect(logs).toContain(`${transfer.name}(`);
    expect(logs).toContain(receipt.logs[0].data);
    expect(page.url()).toBe(`${server.url}/tx/${transferTx}?tab=logs`);
    // State changes: the sender's ETH before and after, as eth_getBalance at the parent and the block.
    await page.getByRole('link', { name: 'State changes' }).click();
    const parent = `0x${(Number(receipt.blockNumber) - 1).toString(16)}`;
    const before = BigInt(await rpc<Hex>('eth_getBalance', [tx.from, parent]));
    const after = BigInt(await rpc<Hex>('eth_getBalance', [tx.from, receipt.blockNumber]));
    const row = (await textOf(`tr[data-change="${getAddress(tx.from)}"]`)).split('\t').map((c) => c.trim());
    expect(row[1]).toBe('ETH');
    expect([plain(row[2]!), plain(row[3]!), plain(row[4]!)]).toEqual([
      plain(formatEther(before)),
      plain(formatEther(after)),
      plain(formatEther(after - before)),
    ]);
    await expectAccessible('tx-state');
  });

  it('a failed transaction shows Failed and the revert reason eth_call gives', async () => {
    const tx = await rpc('eth_getTransactionByHash', [revertedTx]);
    const receipt = await rpc('eth_getTransactionReceipt', [revertedTx]);
    expect(receipt.status).toBe('0x0');
    // The reason, replayed at the parent block: Error(string) in the call's revert data.
    let reason = '';
    try {
      await rpc('eth_call', [
        { from: tx.from, to: tx.to, data: tx.input, gas: tx.gas },
        `0x${(Number(receipt.blockNumber) - 1).toString(16)}`,
      ]);
    } catch (e) {
      const data = (e as { data?: Hex | { data?: Hex } }).data;
      const raw = typeof data === 'string' ? data : data?.data;
      reason = new Interface(['error Error(string)']).decodeErrorResult('Error', raw!)[0] as string;
    }
    expect(reason).not.toBe('');
    await open(`/tx/${revertedTx}`);
    const status = await textOf('[data-field="status"]');
    expect(status).toContain('Failed');
    expect(await textOf('[data-field="revert-reason"]')).toBe(reason);
    await expectAccessible('tx-failed');
  });

  it('internal transactions tab: the frames debug_traceTransaction’s callTracer finds', async () => {
    const trace = await rpc('debug_traceTransaction', [factoryTx, { tracer: 'callTracer' }]);
    const frames = trace.calls as { type: string; to: string }[];
    expect(frames.length).toBeGreaterThan(0);
    await open(`/tx/${factoryTx}?tab=internal`);
    const rows = page.locator('section[aria-label="Transaction activity"] tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(frames.length);
    for (const [i, f] of frames.entries()) {
      const row = rows.nth(i);
      expect((await row.locator('td').first().innerText()).toUpperCase()).toBe(f.type);
      const links = await row
        .locator('a[href^="/address/"]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('title')));
      expect(links.map((h) => h?.toLowerCase())).toContain(f.to.toLowerCase());
    }
    await expectAccessible('tx-internal');
  });

  it('address page: balance as eth_getBalance, its transactions, token balances', async () => {
    const who = d.accounts[2]!;
    await open(`/address/${who}`);
    const balance = await rpc<Hex>('eth_getBalance', [who, 'latest']);
    expect(plain(await textOf('[data-field="balance"]'))).toBe(plain(formatEther(BigInt(balance))));
    await textOf(`[data-tx="${revertedTx}"]`);
    await expectAccessible('address');
    const abi = new Interface(loadArtifact('Token').abi);
    const held = BigInt(
      await rpc<Hex>('eth_call', [{ to: token, data: abi.encodeFunctionData('balanceOf', [d.accounts[1]]) }, 'latest']),
    );
    await open(`/address/${d.accounts[1]}?tab=tokens`);
    expect(await textOf('section[aria-label="Tokens"] tbody')).toContain(
      `${formatUnits(held, 18).replace(/\.0$/, '')} ASH`,
    );
  });

  it('contract page: verified source and ABI from the build, and the code eth_getCode returns', async () => {
    await open(`/address/${token}?tab=contract`);
    const code = await rpc<Hex>('eth_getCode', [token, 'latest']);
    // The bytecode sits in a closed <details>: opened from the keyboard, as a user would.
    await page.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect((await textOf('[data-field="bytecode"]')).replace(/\s/g, '')).toBe(code);
    expect(await textOf('[data-field="source"]')).toBe(readSources()['Token.sol']!.content.trim());
    const abi = JSON.parse(await textOf('[data-field="abi"]'));
    expect(abi).toEqual(tokenAbi);
    // Read methods without arguments show what eth_call answers now.
    const token$ = new Interface(loadArtifact('Token').abi);
    for (const name of ['name', 'symbol', 'decimals', 'totalSupply']) {
      const out = await rpc<Hex>('eth_call', [{ to: token, data: token$.encodeFunctionData(name) }, 'latest']);
      const value = String(token$.decodeFunctionResult(name, out)[0]);
      const cells = (await textOf(`tr[data-method="${name}"]`)).split('\t');
      expect(cells[1]!.trim()).toBe(value);
    }
    await expectAccessible('contract');
    await open('/verified-contracts');
    expect((await textOf('main tbody')).toLowerCase()).toContain(token.toLowerCase());
    await expectAccessible('verified-contracts');
  });

  it('contract page: a read method with arguments answers as eth_call does', async () => {
    await open(`/address/${token}?tab=contract`);
    const token$ = new Interface(loadArtifact('Token').abi);
    const who = d.accounts[1]!;
    const form = page.getByRole('form', { name: 'Query balanceOf' });
    await form.getByRole('textbox').fill(who);
    await form.getByRole('button', { name: 'Query' }).click();
    const out = await rpc<Hex>('eth_call', [
      { to: token, data: token$.encodeFunctionData('balanceOf', [who]) },
      'latest',
    ]);
    expect(await textOf('form[aria-label="Query balanceOf"] [data-field="result"]')).toBe(
      String(token$.decodeFunctionResult('balanceOf', out)[0]),
    );
    // Two arguments: allowance(address, address), a public mapping's getter (unnamed inputs: #0, #1).
    const allowance = page.getByRole('form', { name: 'Query allowance' });
    await allowance.getByLabel('#0').fill(d.accounts[0]!);
    await allowance.getByLabel('#1').fill(who);
    await allowance.getByRole('button', { name: 'Query' }).click();
    const allowed = await rpc<Hex>('eth_call', [
      { to: token, data: token$.encodeFunctionData('allowance', [d.accounts[0], who]) },
      'latest',
    ]);
    expect(await textOf('form[aria-label="Query allowance"] [data-field="result"]')).toBe(BigInt(allowed).toString());
    // A bad argument gets the API's message, not a crash. Chromium logs the 422 answer as a console
    // error; that one is expected here and taken out, so the final no-errors check still sees the rest.
    const logged = consoleErrors.length;
    await form.getByRole('textbox').fill('not an address');
    await form.getByRole('button', { name: 'Query' }).click();
    expect(await textOf('form[aria-label="Query balanceOf"] .badge.error')).toMatch(/balanceOf|address/i);
    const added = consoleErrors.splice(logged);
    for (const line of added) expect(line).toContain('422');
  });

  it('contract page: a write method sends eth_sendTransaction from the chosen dev account', async () => {
    await open(`/address/${token}?tab=contract`);
    const token$ = new Interface(loadArtifact('Token').abi);
    // The select lists the node's eth_accounts; send from the second.
    const accounts = await rpc<string[]>('eth_accounts');
    const sender = accounts[1]!;
    const to = d.accounts[5]!;
    const balanceOf = async (a: string) =>
      BigInt(await rpc<Hex>('eth_call', [{ to: token, data: token$.encodeFunctionData('balanceOf', [a]) }, 'latest']));
    const before = await balanceOf(to);
    await page.locator('option', { hasText: sender }).waitFor({ state: 'attached' });
    await page.getByLabel('Send from').selectOption(sender);
    const form = page.getByRole('form', { name: 'Write transfer', exact: true });
    await form.getByLabel('to').fill(to);
    await form.getByLabel('value').fill('7000000000000000000');
    await form.getByRole('button', { name: 'Send' }).click();
    const link = page.locator('form[data-write="transfer"] [data-field="write-tx"] a');
    await link.waitFor();
    const hash = (await link.getAttribute('href'))!.replace('/tx/', '') as Hex;
    const tx = await rpc('eth_getTransactionByHash', [hash]);
    expect(tx.from.toLowerCase()).toBe(sender.toLowerCase());
    expect(tx.to.toLowerCase()).toBe(token.toLowerCase());
    expect(tx.input).toBe(token$.encodeFunctionData('transfer', [to, 7n * 10n ** 18n]));
    expect(await balanceOf(to)).toBe(before + 7n * 10n ** 18n);
    await expectAccessible('contract-write');
    // The link opens the new transaction's page, which shows the decoded call.
    await link.click();
    await page.waitForURL(`${server.url}/tx/${hash}`);
    expect(await textOf('[data-field="status"]')).toContain('Success');
    const method = await textOf('[data-field="method"]', 'transfer');
    expect(method).toContain('transfer(address to, uint256 value)');
    expect(method.toLowerCase()).toContain(to.toLowerCase());
    // A write that cannot encode (a non-address) says why, and sends nothing.
    const count = await rpc<Hex>('eth_getTransactionCount', [sender, 'latest']);
    await open(`/address/${token}?tab=contract`);
    const again = page.getByRole('form', { name: 'Write transfer', exact: true });
    await again.getByLabel('to').fill('nobody');
    await again.getByLabel('value').fill('1');
    await again.getByRole('button', { name: 'Send' }).click();
    expect(await textOf('form[data-write="transfer"] .badge.error')).toContain('not an address');
    expect(await rpc<Hex>('eth_getTransactionCount', [sender, 'latest'])).toBe(count);
    // A write that reverts shows the reason eth_call gives for the same call.
    const tooMuch = 10n ** 30n;
    const callError = await rpc('eth_call', [
      { from: sender, to: token, data: token$.encodeFunctionData('transfer', [to, tooMuch]) },
      'latest',
    ]).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(callError).toContain('Token: insufficient balance');
    await open(`/address/${token}?tab=contract`);
    await page.locator('option', { hasText: sender }).waitFor({ state: 'attached' });
    await page.getByLabel('Send from').selectOption(sender);
    const failing = page.getByRole('form', { name: 'Write transfer', exact: true });
    await failing.getByLabel('to').fill(to);
    await failing.getByLabel('value').fill(tooMuch.toString());
    await failing.getByRole('button', { name: 'Send' }).click();
    expect(await textOf('form[data-write="transfer"] .badge.error')).toContain('Token: insufficient balance');
  });

  it('verified source is highlighted: keywords, strings, comments and numbers, readable in both themes', async () => {
    await open(`/address/${token}?tab=contract`);
    await textOf('[data-field="source"]');
    const tokens = await page.evaluate(() => {
      const of = (cls: string) =>
        [...document.querySelectorAll(`[data-field="source"] .${cls}`)].map((e) => e.textContent);
      return { kw: of('tk-kw'), str: of('tk-str'), com: of('tk-com'), num: of('tk-num') };
    });
    expect(tokens.kw).toEqual(expect.arrayContaining(['pragma', 'contract', 'function', 'returns', 'mapping']));
    expect(tokens.num.length).toBeGreaterThan(0);
    const source = readSources()['Token.sol']!.content;
    // Every comment and string literal of the file, each in one span (checked against the file's own text).
    const comments = source.match(/\/\/[^\n]*/g) ?? [];
    for (const c of comments) expect(tokens.com).toContain(c);
    const strings = source.match(/"[^"\n]*"/g) ?? [];
    for (const q of strings) expect(tokens.str).toContain(q);
    await expectAccessible('contract-source');
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await open(`/address/${token}?tab=contract`);
      await textOf('[data-field="source"]');
      await expectAccessible('contract-source-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('tokens and token page: name, supply and holders by balanceOf', async () => {
    await open('/tokens');
    expect(await textOf('main tbody')).toContain('Ash Token (ASH)');
    await expectAccessible('tokens');
    await page.getByRole('link', { name: /Ash Token/ }).click();
    await page.waitForURL(`${server.url}/token/**`);
    const abi = new Interface(loadArtifact('Token').abi);
    const supply = BigInt(await rpc<Hex>('eth_call', [{ to: token, data: abi.encodeFunctionData('totalSupply') }]));
    expect(plain(await textOf('[data-field="supply"]')).replace(/ ASH$/, '')).toBe(plain(formatUnits(supply, 18)));
    // Holders: every dev account with a non-zero balanceOf.
    let holders = 0;
    for (const a of d.accounts) {
      const bal = BigInt(await rpc<Hex>('eth_call', [{ to: token, data: abi.encodeFunctionData('balanceOf', [a]) }]));
      if (bal > 0n) holders++;
    }
    expect(await textOf('[data-field="holders"]')).toBe(String(holders));
    await expectAccessible('token');
  });

  it('search: a transaction hash opens its page, a token name lists the token', async () => {
    await open('/');
    await page.getByLabel('Search by block, transaction, address or token').fill(transferTx);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/tx/${transferTx}`);
    await textOf('[data-field="status"]');
    // A block number opens the block, an address its page (Blockscout's redirects).
    await open('/search?q=1');
    await page.waitForURL(`${server.url}/block/1`);
    await page.getByRole('heading', { level: 1, name: 'Block 1' }).waitFor();
    await open(`/search?q=${d.accounts[2]}`);
    await page.waitForURL((u) => u.pathname.toLowerCase() === `/address/${d.accounts[2]!.toLowerCase()}`);
    await textOf('[data-field="balance"]');
    await open('/search?q=Ash%20Tok');
    expect(await textOf('main tbody')).toContain('Ash Token (ASH)');
    await expectAccessible('search');
  });

  it('blocks and transactions lists, keyboard navigation between pages', async () => {
    await open('/blocks');
    const head = Number(await rpc<Hex>('eth_blockNumber'));
    await textOf(`[data-block="${head}"]`);
    await expectAccessible('blocks');
    // Tab to the "Transactions" link of the main navigation and follow it with Enter.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/txs`);
    await textOf(`[data-tx="${transferTx}"]`);
    await expectAccessible('txs');
  });

  it('pending tab lists a pooled transaction; its page turns from pending to mined without a reload', async () => {
    await rpc('evm_setAutomine', [false]);
    try {
      const hash = await d.send({ to: d.accounts[3], value: 1n });
      expect((await rpc('eth_getTransactionByHash', [hash])).blockNumber).toBeNull();
      await open('/txs?tab=pending');
      await textOf(`[data-tx="${hash}"]`);
      await expectAccessible('txs-pending');
      await open(`/tx/${hash}`);
      expect(await textOf('[data-field="status"]')).toContain('Pending');
      await rpc('evm_mine');
      const receipt = await rpc('eth_getTransactionReceipt', [hash]);
      expect(receipt.status).toBe('0x1');
      expect(await textOf('[data-field="status"]', 'Pending')).toContain('Success');
      expect(await textOf('[data-field="block"]')).toContain(String(Number(receipt.blockNumber)));
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });

  it('a phone-wide screen scrolls nothing sideways, and the dark theme follows the system', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      for (const path of ['/', `/tx/${transferTx}`, `/address/${d.accounts[0]}`, `/address/${token}?tab=contract`]) {
        await open(path);
        await textOf('main h1');
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        // What sticks out, outside the tables' own scroll boxes (for the failure message).
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter(
              (e) => !e.parentElement?.closest('.table-wrap') && e.getBoundingClientRect().right > window.innerWidth,
            )
            .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
            .slice(0, 5),
        );
        expect(overflow, `${path}: ${wide.join(' ')}`).toBeLessThanOrEqual(0);
      }
      await page.screenshot({ path: join(shots, 'phone-address.png'), fullPage: true });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await open(`/tx/${revertedTx}`);
      await textOf('[data-field="revert-reason"]');
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r, g, b] = bg.match(/\d+/g)!.map(Number);
      expect(r! + g! + b!, bg).toBeLessThan(150);
      await expectAccessible('tx-failed-dark');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('hardhat_reset empties the pages without a reload', async () => {
    await open('/');
    const head = Number(await rpc<Hex>('eth_blockNumber'));
    await textOf(`[data-block="${head}"]`);
    expect(await rpc<boolean>('hardhat_reset', [])).toBe(true);
    expect(await rpc<Hex>('eth_blockNumber')).toBe('0x0');
    await page.locator(`[data-block="${head}"]`).waitFor({ state: 'detached', timeout: 10_000 });
    await textOf('[data-block="0"]');
    expect(await page.locator('[data-block]').count()).toBe(1);
    expect(await textOf('[data-stat="transactions"]', '…')).toBe('0');
  });

  it('no request left the node’s origin, and the pages logged no errors', () => {
    // HTTP to the node's origin, and WebSocket to the same host and port.
    const { host } = new URL(server.url);
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.some((u) => u.startsWith('ws://'))).toBe(true);
    const elsewhere = requests.filter(
      (u) => !u.startsWith('data:') && !(['http:', 'ws:'].includes(new URL(u).protocol) && new URL(u).host === host),
    );
    expect(elsewhere).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe('serving the app', () => {
  it('a page GET gets the app, JSON-RPC and /api/v2 are unchanged, and explorerUi: false turns it off', async () => {
    const node = await createNode();
    const on = await startServer(node, { port: 0 });
    const off = await startServer(node, { port: 0, explorerUi: false });
    try {
      const html = { accept: 'text/html,application/xhtml+xml' };
      const page = await fetch(`${on.url}/address/0x0000000000000000000000000000000000000001`, { headers: html });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
      expect(script).toBeDefined();
      const js = await fetch(`${on.url}${script}`);
      expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      // Only names esbuild writes are served: no way out of the assets folder.
      expect((await fetch(`${on.url}/assets/%2e%2e%2fpackage.json`)).status).toBe(404);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      const api = await fetch(`${on.url}/api/v2/stats`, { headers: html });
      expect(api.headers.get('content-type')).toMatch(/^application\/json/);
      const post = await fetch(on.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...html },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      expect(await post.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
      // Without the app a browser's GET / is JSON-RPC's as before: not a page.
      const offPage = await fetch(`${off.url}/`, { headers: html });
      expect(offPage.headers.get('content-type')).not.toMatch(/^text\/html/);
      expect((await fetch(`${off.url}/assets/x.js`)).headers.get('content-type')).not.toMatch(/^text\/javascript/);
    } finally {
      await on.close();
      await off.close();
      await node.close();
    }
  });

  it('--no-explorer-ui and ASHLAR_NO_EXPLORER_UI turn the app off; it is on by default', () => {
    expect(parseCliArgs([], {}).server.explorerUi).toBeUndefined();
    expect(parseCliArgs(['--no-explorer-ui'], {}).server.explorerUi).toBe(false);
    expect(parseCliArgs([], { ASHLAR_NO_EXPLORER_UI: '1' }).server.explorerUi).toBe(false);
    expect(parseCliArgs([], { ASHLAR_NO_EXPLORER_UI: 'false' }).server.explorerUi).toBeUndefined();
  });
});
