import { DEFAULT_HARDFORK, DEFAULT_MNEMONIC, SUPPORTED_HARDFORKS } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { CliArgsError, DEFAULT_DB, OPTIONS, parseCliArgs, usage } from './args.js';

const ETH = 10n ** 18n;

describe('parseCliArgs', () => {
  it('has the documented defaults', () => {
    const c = parseCliArgs([], {});
    expect(c).toMatchObject({
      command: 'run',
      host: '127.0.0.1',
      port: 8545,
      db: DEFAULT_DB,
      memory: false,
      chainId: 31337n,
      accounts: 20,
      balance: 10_000n * ETH,
      mnemonic: DEFAULT_MNEMONIC,
      hardfork: DEFAULT_HARDFORK,
      gasLimit: 30_000_000n,
      baseFee: 1_000_000_000n,
      blockTime: 0,
      automine: true,
      verbose: false,
    });
    expect(c.server).toEqual({ host: '127.0.0.1', port: 8545 });
    expect(c.node).toEqual({
      db: DEFAULT_DB,
      chain: {
        chainId: 31337n,
        hardfork: DEFAULT_HARDFORK,
        mnemonic: DEFAULT_MNEMONIC,
        accounts: 20,
        balance: 10_000n * ETH,
        gasLimit: 30_000_000n,
        baseFee: 1_000_000_000n,
      },
      mining: { automine: true, blockTime: 0 },
    });
  });

  it('reads every flag', () => {
    const c = parseCliArgs(
      [
        '--host=0.0.0.0',
        '-p',
        '0',
        '--db',
        '/tmp/x',
        '--chain-id',
        '1337',
        '--accounts',
        '3',
        '--balance',
        '1.5',
        '--mnemonic',
        ' a  b c ',
        '--hardfork',
        'cancun',
        '--gas-limit',
        '60000000',
        '--base-fee',
        '7',
        '--block-time',
        '2.5',
        '--no-automine',
        '--verbose',
      ],
      {},
    );
    expect(c).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      db: '/tmp/x',
      memory: false,
      chainId: 1337n,
      accounts: 3,
      balance: 1_500_000_000_000_000_000n,
      mnemonic: 'a b c',
      hardfork: 'cancun',
      gasLimit: 60_000_000n,
      baseFee: 7n,
      blockTime: 2.5,
      automine: false,
      verbose: true,
    });
    expect(c.node.mining).toEqual({ automine: false, blockTime: 2.5 });
    expect(c.node.db).toBe('/tmp/x');
  });

  it('--artifacts DIR (or ASHLAR_ARTIFACTS) goes to the explorer', () => {
    expect(parseCliArgs(['--artifacts', 'out'], {}).node.artifacts).toBe('out');
    expect(parseCliArgs([], { ASHLAR_ARTIFACTS: 'artifacts' }).node.artifacts).toBe('artifacts');
    expect(parseCliArgs([], {}).node.artifacts).toBeUndefined();
    expect(() => parseCliArgs(['--artifacts', ' '], {})).toThrow(CliArgsError);
  });

  it('--memory drops the db', () => {
    const c = parseCliArgs(['--memory'], {});
    expect(c.memory).toBe(true);
    expect(c.db).toBeUndefined();
    expect(c.node.memory).toBe(true);
    expect(c.node.db).toBeUndefined();
  });

  it('reads every environment variable', () => {
    const c = parseCliArgs([], {
      ASHLAR_HOST: '::1',
      ASHLAR_PORT: '9000',
      ASHLAR_DB: 'data',
      ASHLAR_CHAIN_ID: '5',
      ASHLAR_ACCOUNTS: '2',
      ASHLAR_BALANCE: '0.000000000000000001',
      ASHLAR_MNEMONIC: 'x y',
      ASHLAR_HARDFORK: 'shanghai',
      ASHLAR_GAS_LIMIT: '21000',
      ASHLAR_BASE_FEE: '0',
      ASHLAR_BLOCK_TIME: '1',
      ASHLAR_NO_AUTOMINE: 'true',
      ASHLAR_VERBOSE: '1',
    });
    expect(c).toMatchObject({
      host: '::1',
      port: 9000,
      db: 'data',
      chainId: 5n,
      accounts: 2,
      balance: 1n,
      mnemonic: 'x y',
      hardfork: 'shanghai',
      gasLimit: 21000n,
      baseFee: 0n,
      blockTime: 1,
      automine: false,
      verbose: true,
    });
    expect(parseCliArgs([], { ASHLAR_MEMORY: 'yes' }).memory).toBe(true);
    expect(parseCliArgs([], { ASHLAR_MEMORY: '0', ASHLAR_VERBOSE: 'off' })).toMatchObject({
      memory: false,
      verbose: false,
    });
  });

  it('flags win over the environment', () => {
    const c = parseCliArgs(['--port', '1', '--chain-id', '2', '--balance', '3'], {
      ASHLAR_PORT: '9000',
      ASHLAR_CHAIN_ID: '5',
      ASHLAR_BALANCE: 'nonsense',
    });
    expect(c).toMatchObject({ port: 1, chainId: 2n, balance: 3n * ETH });
    // An explicit --db beats ASHLAR_MEMORY.
    const d = parseCliArgs(['--db', 'here'], { ASHLAR_MEMORY: '1' });
    expect(d).toMatchObject({ memory: false, db: 'here' });
    expect(parseCliArgs(['--memory'], { ASHLAR_DB: 'there' })).toMatchObject({ memory: true, db: undefined });
  });

  it('treats empty variables as unset', () => {
    expect(parseCliArgs([], { ASHLAR_PORT: '', ASHLAR_HOST: '' })).toMatchObject({ port: 8545, host: '127.0.0.1' });
  });

  it.each([
    [['--port', 'abc'], '--port'],
    [['--port', '65536'], '--port'],
    [['--port', '-1'], '--port'],
    [['--chain-id', '0'], '--chain-id'],
    [['--chain-id', '1.5'], '--chain-id'],
    [['--accounts', '10001'], '--accounts'],
    [['--accounts', 'x'], '--accounts'],
    [['--balance', '-1'], '--balance'],
    [['--balance', '1.0000000000000000001'], '--balance'],
    [['--balance', '1e3'], '--balance'],
    [['--hardfork', 'nope'], '--hardfork'],
    [['--gas-limit', '20999'], '--gas-limit'],
    [['--base-fee', '1.5'], '--base-fee'],
    [['--block-time', '-2'], '--block-time'],
    [['--block-time', 'soon'], '--block-time'],
    [['--mnemonic', '  '], '--mnemonic'],
    [['--db', ''], '--db'],
    [['--bogus'], '--bogus'],
    [['--port'], '--port'],
    [['--memory=1'], '--memory'],
    [['--db', 'x', '--memory'], '--db'],
    [['stray'], 'stray'],
  ])('rejects %j naming %s', (argv, flag) => {
    let err: unknown;
    try {
      parseCliArgs(argv, {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliArgsError);
    expect((err as Error).message).toContain(flag);
    expect((err as Error).message).not.toContain('\n');
  });

  it('--no-call-frames / ASHLAR_NO_CALL_FRAMES turn call-frame capture off (default on)', () => {
    expect(parseCliArgs([], {}).node.chain?.callFrames).toBeUndefined();
    expect(parseCliArgs(['--no-call-frames'], {}).node.chain?.callFrames).toBe(false);
    expect(parseCliArgs([], { ASHLAR_NO_CALL_FRAMES: '1' }).node.chain?.callFrames).toBe(false);
  });

  it('--poll-after-reply-us / ASHLAR_POLL_AFTER_REPLY_US set the polling window after each answer (0: off)', () => {
    expect(parseCliArgs([], {}).server.pollAfterReplyUs).toBeUndefined();
    expect(parseCliArgs(['--poll-after-reply-us', '0'], {}).server.pollAfterReplyUs).toBe(0);
    expect(parseCliArgs(['--poll-after-reply-us', '500'], {}).server.pollAfterReplyUs).toBe(500);
    expect(parseCliArgs([], { ASHLAR_POLL_AFTER_REPLY_US: '50' }).server.pollAfterReplyUs).toBe(50);
    for (const bad of ['1.5', 'x', '100001'])
      expect(() => parseCliArgs(['--poll-after-reply-us', bad], {})).toThrow(/--poll-after-reply-us.*0 to 100000/);
    expect(() => parseCliArgs([], { ASHLAR_POLL_AFTER_REPLY_US: '-1' })).toThrow(
      /ASHLAR_POLL_AFTER_REPLY_US.*0 to 100000/,
    );
  });

  it('names the variable and the flag for bad environment values', () => {
    expect(() => parseCliArgs([], { ASHLAR_PORT: 'x' })).toThrow(/ASHLAR_PORT \(--port\)/);
    expect(() => parseCliArgs([], { ASHLAR_NO_AUTOMINE: 'maybe' })).toThrow(/ASHLAR_NO_AUTOMINE/);
    expect(() => parseCliArgs([], { ASHLAR_BASE_FEE: '1gwei' })).toThrow(/ASHLAR_BASE_FEE/);
  });

  it('--help and --version win over other (even invalid) values', () => {
    expect(parseCliArgs(['--help', '--port', 'x'], {}).command).toBe('help');
    expect(parseCliArgs(['-h'], {}).command).toBe('help');
    expect(parseCliArgs(['--version'], { ASHLAR_PORT: 'x' }).command).toBe('version');
    expect(parseCliArgs(['-V'], {}).command).toBe('version');
  });
});

describe('Hardhat / Anvil compatibility options', () => {
  it('--client-version, --send-defaults and --revert-hash-only reach the node options, flags or variables', () => {
    const c = parseCliArgs(
      ['--client-version', 'anvil/v1.7.1', '--send-defaults', 'hardhat', '--revert-hash-only'],
      {},
    );
    expect(c.node.clientVersion).toBe('anvil/v1.7.1');
    expect(c.node.sendDefaults).toBe('hardhat');
    expect(c.node.throwOnTransactionFailures).toBe(false);
    const e = parseCliArgs([], {
      ASHLAR_CLIENT_VERSION: 'x/1',
      ASHLAR_SEND_DEFAULTS: 'spec',
      ASHLAR_REVERT_HASH_ONLY: '1',
    });
    expect([e.node.clientVersion, e.node.sendDefaults, e.node.throwOnTransactionFailures]).toEqual([
      'x/1',
      'spec',
      false,
    ]);
    const d = parseCliArgs([], {});
    expect([d.node.clientVersion, d.node.sendDefaults, d.node.throwOnTransactionFailures]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('names the flag of a bad value', () => {
    expect(() => parseCliArgs(['--send-defaults', 'anvil'], {})).toThrow(/--send-defaults.*spec, hardhat/);
    expect(() => parseCliArgs(['--client-version', ' '], {})).toThrow(/--client-version/);
  });
});

describe('usage', () => {
  it('never runs an option name into its text', () => {
    for (const line of usage().split('\n')) {
      const m = /^ {2}(-\w, | {4})--\S+( \S+)?/.exec(line);
      if (!m) continue;
      const rest = line.slice(m[0].length);
      // the text follows after at least two spaces, or on the next line
      expect(rest === '' || rest.startsWith('  '), line).toBe(true);
    }
  });

  it('lists every option and environment variable', () => {
    const text = usage();
    for (const o of OPTIONS) {
      expect(text).toContain(`--${o.flag}`);
      if (o.env) expect(text).toContain(o.env);
    }
    for (const h of SUPPORTED_HARDFORKS) expect(text).toContain(h);
  });
});
