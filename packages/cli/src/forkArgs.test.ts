import { describe, expect, it } from 'vitest';
import { CliArgsError, parseCliArgs, usage } from './args.js';

describe('fork options', () => {
  it('--fork-url and its companions make the fork options; the chain runs in memory and takes the upstream chain id', () => {
    const c = parseCliArgs(
      [
        '--fork-url',
        'https://rpc.example/v1',
        '--fork-block-number',
        '19000000',
        '--fork-header',
        'Authorization: Bearer abc',
        '--fork-header',
        'x-api-key:k1',
        '--fork-retries',
        '3',
        '--fork-concurrency',
        '4',
        '--no-fork-cache',
      ],
      {},
    );
    expect(c.node.fork).toEqual({
      url: 'https://rpc.example/v1',
      blockNumber: 19_000_000n,
      headers: { Authorization: 'Bearer abc', 'x-api-key': 'k1' },
      retries: 3,
      concurrency: 4,
      cache: false,
    });
    expect(c.memory).toBe(true);
    expect(c.node.chain?.chainId).toBeUndefined();
    expect(c.node.chain?.gasLimit).toBeUndefined();
    expect(parseCliArgs(['--fork', 'http://x', '--gas-limit', '50000000'], {}).node.chain?.gasLimit).toBe(50_000_000n);
  });

  it('takes --fork and ASHLAR_FORK_URL, keeps --db and --chain-id when given', () => {
    expect(parseCliArgs(['--fork', 'http://127.0.0.1:8546'], {}).node.fork).toEqual({ url: 'http://127.0.0.1:8546' });
    const c = parseCliArgs(['--db', 'forkdb', '--chain-id', '1337'], {
      ASHLAR_FORK_URL: 'http://127.0.0.1:8546',
      ASHLAR_FORK_HEADERS: 'a:1,b:2',
    });
    expect(c.node.fork).toEqual({ url: 'http://127.0.0.1:8546', headers: { a: '1', b: '2' } });
    expect(c.db).toBe('forkdb');
    expect(c.node.chain?.chainId).toBe(1337n);
  });

  it('names the flag of a bad value', () => {
    const bad = (argv: string[], message: string) => {
      expect(() => parseCliArgs(argv, {})).toThrow(CliArgsError);
      expect(() => parseCliArgs(argv, {})).toThrow(message);
    };
    bad(['--fork-url', 'ws://x'], 'invalid value for --fork-url: "ws://x" (expected an http:// or https:// URL)');
    bad(['--fork-url', 'http://x', '--fork-block-number', 'latest'], 'invalid value for --fork-block-number');
    bad(['--fork-url', 'http://x', '--fork-header', 'no-colon'], 'invalid value for --fork-header: "no-colon"');
    bad(['--fork-url', 'http://x', '--fork-retries=-1'], 'invalid value for --fork-retries');
    bad(['--fork-url', 'http://x', '--fork-concurrency', '0'], 'invalid value for --fork-concurrency');
    bad(['--fork-block-number', '5'], '--fork-block-number needs --fork-url');
    bad(['--fork-url', 'http://x', '--fork', 'http://y'], '--fork-url and --fork are the same option');
  });

  it('lists the options in --help', () => {
    for (const flag of ['--fork-url URL', '--fork-block-number N', '--fork-header NAME:VALUE', '--no-fork-cache'])
      expect(usage()).toContain(flag);
  });
});
