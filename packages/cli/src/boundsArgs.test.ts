import { describe, expect, it } from 'vitest';
import { CliArgsError, parseCliArgs } from './args.js';

describe('bound options (issue #20)', () => {
  it('flags reach the server and the node', () => {
    const c = parseCliArgs(
      [
        '--allowed-hosts',
        'chain.example, Other.example',
        '--cors-origins',
        'http://localhost:3000,https://app.example',
        '--max-response-bytes',
        '1000000',
        '--batch-cost-budget',
        '0',
        '--max-proof-keys',
        '50',
        '--ws-max-connections',
        '10',
        '--ws-max-subscriptions',
        '5',
        '--ws-max-buffered-bytes',
        '65536',
        '--ws-max-pings-per-second',
        '20',
        '--ws-max-frame-bytes',
        '1024',
      ],
      {},
    );
    expect(c.server).toMatchObject({
      allowedHosts: ['chain.example', 'Other.example'],
      cors: { origin: ['http://localhost:3000', 'https://app.example'] },
      ws: {
        maxFrameBytes: 1024,
        maxConnections: 10,
        maxSubscriptionsPerConnection: 5,
        maxBufferedBytes: 65536,
        maxPingsPerSecond: 20,
      },
    });
    expect(c.node.rpc).toMatchObject({ maxResponseBytes: 1_000_000, batchCostBudget: 0, maxProofKeys: 50 });
  });

  it('environment variables work, flags win, "none" turns CORS off', () => {
    const c = parseCliArgs(['--allowed-hosts', '*'], {
      ASHLAR_ALLOWED_HOSTS: 'ignored.example',
      ASHLAR_CORS_ORIGINS: 'none',
      ASHLAR_WS_MAX_CONNECTIONS: '3',
    });
    expect(c.server).toMatchObject({ allowedHosts: ['*'], cors: false, ws: { maxConnections: 3 } });
  });

  it('a bad value names the option', () => {
    expect(() => parseCliArgs(['--ws-max-connections', '0'], {})).toThrow(CliArgsError);
    expect(() => parseCliArgs(['--max-proof-keys', 'many'], {})).toThrow(/--max-proof-keys/);
    expect(() => parseCliArgs([], { ASHLAR_MAX_RESPONSE_BYTES: '-1' })).toThrow(/ASHLAR_MAX_RESPONSE_BYTES/);
  });

  it('nothing given: nothing set (the libraries apply their defaults)', () => {
    const c = parseCliArgs([], {});
    expect(c.server).toEqual({ host: '127.0.0.1', port: 8545 });
  });
});
