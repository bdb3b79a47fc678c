// Issue #8, request limits: each limit has a library option, a flag and a variable of the
// `ashlar` command, and an error that names it; eth_call / eth_estimateGas stop at a time limit
// while the node keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type AccessNode, call, post, startAccessNode } from './helpers/access.js';
import { runningClis, startCli } from './helpers/cli.js';

/** Init code that never ends: JUMPDEST; PUSH1 0; JUMP. */
const SPIN = '0x5b600056';
/** Init code that emits one empty LOG0 and deploys nothing. */
const ONE_LOG = '0x60006000a0';
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

describe('execution time limit (rpc.callTimeoutMs)', () => {
  let node: AccessNode;
  beforeAll(async () => {
    // Prague has no per-transaction gas cap (EIP-7825), so only the time limit stops the loop.
    node = await startAccessNode(
      {},
      { chain: { hardfork: 'prague' }, rpc: { callGasCap: 10n ** 15n, callTimeoutMs: 400 } },
    );
  });
  afterAll(() => node.close());

  it('stops a while(true) eth_call with a huge gas cap, answering others meanwhile', async () => {
    const order: string[] = [];
    const spin = post(node.url, call('eth_call', [{ data: SPIN, gas: '0x38d7ea4c68000' }, 'latest'])).then((r) => {
      order.push('eth_call');
      return r;
    });
    // Sent after the call started executing: answered while the EVM spins, not after.
    await new Promise((r) => setTimeout(r, 50));
    const chainId = await post(node.url, call('eth_chainId'));
    order.push('eth_chainId');
    expect(chainId.json).toMatchObject({ result: '0x7a69' });
    const r = await spin;
    expect(order).toEqual(['eth_chainId', 'eth_call']);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'execution aborted (timeout = 400ms)' },
    });
  });

  it('stops eth_estimateGas too, and leaves the head state as it was', async () => {
    const before = await post(node.url, call('eth_getBalance', [ACCOUNT0, 'latest']));
    // A gas allowance past the block's 30M (the cap is 10^15): the loop must meet the time limit,
    // not run out of gas first (30M gas of this loop takes well under 400 ms on a fast EVM).
    const r = await post(
      node.url,
      call('eth_estimateGas', [{ from: ACCOUNT0, data: SPIN, value: '0x1', gas: '0x38d7ea4c68000' }]),
    );
    expect(r.json).toMatchObject({ error: { code: -32000, message: 'execution aborted (timeout = 400ms)' } });
    // Nothing leaked out of the aborted run: same balance, a transfer still mines.
    expect((await post(node.url, call('eth_getBalance', [ACCOUNT0, 'latest']))).json).toEqual(before.json);
    const sent = await post(node.url, call('eth_sendTransaction', [{ from: ACCOUNT0, to: ACCOUNT0, value: '0x1' }]));
    expect(sent.json).toMatchObject({ result: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const ok = await post(node.url, call('eth_call', [{ data: '0x600160005260206000f3' }, 'latest']));
    expect(ok.json).toMatchObject({ result: `0x${'0'.repeat(63)}1` });
  });
});

describe('every request limit through the ashlar command', () => {
  afterAll(() => {
    for (const p of runningClis) p.kill('SIGKILL');
  });

  it('applies --max-body-bytes, --max-batch-size, --ws-max-frame-bytes, the eth_getLogs limits, --call-gas-cap and --call-timeout', async () => {
    // Half as flags, half as variables: both spellings reach the node.
    const cli = startCli(
      [
        '--memory',
        '--port',
        '0',
        '--hardfork',
        'prague',
        '--max-body-bytes',
        '2048',
        '--max-batch-size',
        '3',
        '--logs-max-block-range',
        '5',
        '--call-timeout',
        '0.3',
      ],
      { ASHLAR_WS_MAX_FRAME_BYTES: '1024', ASHLAR_LOGS_MAX_RESULTS: '2', ASHLAR_CALL_GAS_CAP: '100000' },
    );
    const url = await cli.url;
    try {
      const big = await post(url, call('eth_chainId', ['x'.repeat(3000)]));
      expect(big.status).toBe(413);
      expect(big.json).toMatchObject({
        error: { code: -32600, message: 'request body too large: limit is 2048 bytes (maxBodyBytes)' },
      });

      const batch = await post(
        url,
        [1, 2, 3, 4].map((i) => call('eth_chainId', [], i)),
      );
      expect(batch.json).toMatchObject({ error: { code: -32600, message: 'batch too large: 4 requests, limit is 3' } });
      expect(
        (
          (
            await post(
              url,
              [1, 2, 3].map((i) => call('eth_chainId', [], i)),
            )
          ).json as unknown[]
        ).length,
      ).toBe(3);

      const ws = new WebSocket(url.replace('http', 'ws'));
      await new Promise((r) => ws.once('open', r));
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      ws.send(JSON.stringify(call('eth_chainId', ['x'.repeat(2000)])));
      expect(await closed).toBe(1009);

      for (let i = 0; i < 3; i++) await post(url, call('eth_sendTransaction', [{ from: ACCOUNT0, data: ONE_LOG }]));
      await post(url, call('hardhat_mine', ['0x3']));
      const wide = await post(url, call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x5' }]));
      expect(wide.json).toMatchObject({
        error: { code: -32005, message: expect.stringMatching(/^query exceeds max block range 5/) },
      });
      const many = await post(url, call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x3' }]));
      expect(many.json).toMatchObject({
        error: { code: -32005, message: expect.stringMatching(/^query returned more than 2 results/) },
      });

      const capped = await post(url, call('eth_estimateGas', [{ from: ACCOUNT0, data: SPIN }]));
      expect(capped.json).toMatchObject({
        error: { code: -32000, message: 'gas required exceeds allowance (100000)' },
      });
      // The cap applies to eth_call too, silently, as geth: the loop runs out of gas at 100000.
      const oog = await post(url, call('eth_call', [{ data: SPIN, gas: '0xffffffffff' }, 'latest']));
      expect(oog.json).toMatchObject({
        error: { code: -32000, message: 'out of gas: gas required exceeds allowance (100000)' },
      });
    } finally {
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }

    const slow = startCli(['--memory', '--port', '0', '--hardfork', 'prague', '--call-gas-cap', '1000000000000000'], {
      ASHLAR_CALL_TIMEOUT: '0.3',
    });
    const slowUrl = await slow.url;
    try {
      const r = await post(slowUrl, call('eth_call', [{ data: SPIN, gas: '0x38d7ea4c68000' }, 'latest']));
      expect(r.json).toMatchObject({ error: { code: -32000, message: 'execution aborted (timeout = 300ms)' } });
    } finally {
      slow.proc.kill('SIGTERM');
      await slow.exit;
    }
  });

  it('names the flag or variable of a bad limit', async () => {
    const cli = startCli(['--memory', '--port', '0'], { ASHLAR_RATE_LIMIT: 'fast' });
    expect((await cli.exit).code).toBe(1);
    expect(cli.stderr()).toContain('invalid value for ASHLAR_RATE_LIMIT (--rate-limit): "fast"');
  });
});
