// Issue #8, API-key endpoints (spec §5.2): JSON-RPC at /api/v1/<KEY> over HTTP and WebSocket,
// unknown keys refused with 401 without echoing them, open endpoints off with requireApiKey,
// keys never logged; the same through the `ashlar` command's flags, variable and keys file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessNode, call, openWs, post, startAccessNode, wsAsk } from './helpers/access.js';
import { runningClis, startCli } from './helpers/cli.js';

const KEY = 'k3y-0123456789abcdef0123456789';
const OTHER = 'other-key-0000000000000000';
const GUESS = 'guess-ZZZZZZZZZZZZZZZZZZZZZZ';

describe('keyed endpoints beside the open ones', () => {
  let node: AccessNode;
  beforeAll(async () => {
    node = await startAccessNode({ access: { apiKeys: [KEY, OTHER] } });
  });
  afterAll(() => node.close());

  it('serves JSON-RPC at /api/v1/<KEY> (with or without a trailing slash) and still at /', async () => {
    for (const path of [`/api/v1/${KEY}`, `/api/v1/${KEY}/`, `/api/v1/${OTHER}`, '/']) {
      const r = await post(`${node.url}${path}`, call('eth_chainId'));
      expect(r.status, path).toBe(200);
      expect(r.json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    }
  });

  it('answers an unknown key with 401 and a JSON-RPC error that does not echo it', async () => {
    const r = await post(`${node.url}/api/v1/${GUESS}`, call('eth_chainId'));
    expect(r.status).toBe(401);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'unauthorized: unknown API key' },
    });
    expect(r.text).not.toContain(GUESS);
    // A near miss is just as unknown.
    expect((await post(`${node.url}/api/v1/${KEY.slice(0, -1)}`, call('eth_chainId'))).status).toBe(401);
  });

  it('leaves other /api/v1 paths alone (404)', async () => {
    expect((await post(`${node.url}/api/v1/`, call('eth_chainId'))).status).toBe(404);
    expect((await post(`${node.url}/api/v1/${KEY}/x`, call('eth_chainId'))).status).toBe(404);
  });

  it('serves WebSocket at /api/v1/<KEY> and refuses an unknown key with 401 before upgrading', async () => {
    const ok = await openWs(`${node.wsUrl}/api/v1/${KEY}`);
    if (!('ws' in ok)) throw new Error(`refused: ${ok.status}`);
    expect(await wsAsk(ok.ws, call('eth_chainId', [], 7))).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' });
    ok.ws.close();
    const refused = await openWs(`${node.wsUrl}/api/v1/${GUESS}`);
    expect(refused).toMatchObject({ status: 401 });
    if ('ws' in refused) throw new Error('upgraded');
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: -32000, message: 'unauthorized: unknown API key' },
    });
    expect(refused.body).not.toContain(GUESS);
  });

  it('never logs a key', () => {
    const all = node.logs.join('\n');
    for (const k of [KEY, OTHER, GUESS]) expect(all).not.toContain(k);
  });
});

describe('requireApiKey', () => {
  let node: AccessNode;
  beforeAll(async () => {
    node = await startAccessNode({ access: { apiKeys: [KEY], requireApiKey: true } });
  });
  afterAll(() => node.close());

  it('answers the open JSON-RPC endpoint with 401 naming the way in', async () => {
    const r = await post(node.url, call('eth_chainId'));
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ error: { code: -32000, message: expect.stringContaining('/api/v1/<API key>') } });
    expect((await post(`${node.url}/api/v1/${KEY}`, call('eth_chainId'))).status).toBe(200);
  });

  it('refuses the open WebSocket endpoint and serves subscriptions on the keyed one', async () => {
    expect(await openWs(node.wsUrl)).toMatchObject({ status: 401 });
    const ok = await openWs(`${node.wsUrl}/api/v1/${KEY}`);
    if (!('ws' in ok)) throw new Error(`refused: ${ok.status}`);
    const sub = (await wsAsk(ok.ws, call('eth_subscribe', ['newHeads']))) as { result: string };
    expect(sub.result).toMatch(/^0x[0-9a-f]+$/);
    const head = new Promise<{ params: { subscription: string } }>((resolve) =>
      ok.ws.once('message', (d) => resolve(JSON.parse(String(d)))),
    );
    await node.kernel.request({ method: 'evm_mine' });
    expect((await head).params.subscription).toBe(sub.result);
    ok.ws.close();
  });

  it('keeps the explorer REST API public (spec §5.4: no REST authentication)', async () => {
    const res = await fetch(`${node.url}/api/v2/blocks`);
    expect(res.status).toBe(200);
  });
});

describe('the ashlar command', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'ashlar-keys-'));
  afterAll(() => {
    for (const p of runningClis) p.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  });

  it('reads keys from --api-key, --api-keys-file and ASHLAR_API_KEYS, and never prints them', async () => {
    const file = join(tmp, 'keys.txt');
    writeFileSync(file, `# team keys\n${OTHER}\n\n`);
    const cli = startCli(['--memory', '--port', '0', '--api-key', KEY, '--api-keys-file', file, '--require-api-key']);
    const url = await cli.url;
    try {
      expect((await post(url, call('eth_chainId'))).status).toBe(401);
      expect((await post(`${url}/api/v1/${KEY}`, call('eth_chainId'))).json).toMatchObject({ result: '0x7a69' });
      expect((await post(`${url}/api/v1/${OTHER}`, call('eth_chainId'))).json).toMatchObject({ result: '0x7a69' });
      expect((await post(`${url}/api/v1/${GUESS}`, call('eth_chainId'))).status).toBe(401);
    } finally {
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }
    for (const k of [KEY, OTHER, GUESS]) expect(cli.stdout() + cli.stderr()).not.toContain(k);

    const env = startCli(['--memory', '--port', '0'], { ASHLAR_API_KEYS: `${KEY},${OTHER}` });
    const envUrl = await env.url;
    try {
      expect((await post(`${envUrl}/api/v1/${OTHER}`, call('eth_chainId'))).status).toBe(200);
      expect((await post(envUrl, call('eth_chainId'))).status).toBe(200);
    } finally {
      env.proc.kill('SIGTERM');
      await env.exit;
    }
  });

  it('refuses a weak key without printing it', async () => {
    const cli = startCli(['--memory', '--port', '0', '--api-key', 'hunter2']);
    expect((await cli.exit).code).toBe(1);
    expect(cli.stderr()).toMatch(/bad API key .*16 to 256 characters/);
    expect(cli.stderr()).not.toContain('hunter2');
  });
});
