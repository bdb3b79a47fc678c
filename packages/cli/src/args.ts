import { parseArgs } from 'node:util';
import { LOG_FORMATS, type LogFormat } from './txLog.js';
import {
  DEFAULT_HARDFORK,
  DEFAULT_MNEMONIC,
  SEND_DEFAULTS,
  type SendDefaults,
  SUPPORTED_HARDFORKS,
  defaultClientVersion,
} from '@ashlar/core';
import { ACCESS_OPTIONS, parseAccessArgs } from './accessArgs.js';
import { FORK_OPTIONS, parseForkArgs } from './forkArgs.js';
import type { NodeOptions } from './createNode.js';
import type { ServerOptions } from './server.js';

/** A bad flag or environment variable: the message names it and fits on one line. */
export class CliArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliArgsError';
  }
}

export const DEFAULT_DB = './.ashlar/chain';
export const HD_PATH = "m/44'/60'/0'/0";

/** Everything `ashlar` runs with, after flags, environment and defaults are merged. */
export interface CliConfig {
  /** `help` / `version` print and exit; `run` starts the node. */
  command: 'run' | 'help' | 'version';
  host: string;
  port: number;
  /** LevelDB directory, or undefined when the chain lives in memory. */
  db: string | undefined;
  memory: boolean;
  chainId: bigint;
  accounts: number;
  /** Balance of each dev account, in wei. */
  balance: bigint;
  mnemonic: string;
  hardfork: string;
  gasLimit: bigint;
  baseFee: bigint;
  /** Seconds between interval-mined blocks; 0 = off. */
  blockTime: number;
  automine: boolean;
  verbose: boolean;
  /** --print-traces: print the call tree of every mined transaction. */
  printTraces: boolean;
  /** --silent: print nothing but errors (no banner, transaction or console.log lines). */
  silent: boolean;
  /** --log-format: text lines, or one JSON object a line on stdout and stderr. */
  logFormat: LogFormat;
  /** `--genesis`: a geth genesis.json to load into `node.chain.genesis` (see chainFiles.ts). */
  genesisFile?: string;
  /** `--import`: RLP blocks to import once the node is up, before it serves. */
  importFile?: string;
  /** `--load-state`: a state dump to apply at start. */
  loadStateFile?: string;
  /** `--dump-state`: where to write the state at shutdown. */
  dumpStateFile?: string;
  /** Ready for `createNode` (add a logger; with `genesisFile`, add the parsed genesis). */
  node: NodeOptions;
  /** Ready for `startServer`. */
  server: ServerOptions;
}

interface OptionSpec {
  flag: string;
  env?: string;
  type: 'string' | 'boolean';
  short?: string;
  /** Repeatable flag (parseArgs collects an array). */
  multiple?: boolean;
  value?: string;
  help: string;
}

/** Every option, in the order `--help` lists them. */
export const OPTIONS: readonly OptionSpec[] = [
  {
    flag: 'host',
    env: 'ASHLAR_HOST',
    type: 'string',
    value: 'HOST',
    help: 'interface to listen on (default 127.0.0.1)',
  },
  {
    flag: 'port',
    env: 'ASHLAR_PORT',
    type: 'string',
    short: 'p',
    value: 'PORT',
    help: 'port to listen on, 0 for any free port (default 8545)',
  },
  {
    flag: 'db',
    env: 'ASHLAR_DB',
    type: 'string',
    value: 'DIR',
    help: `LevelDB directory; the chain survives restarts (default ${DEFAULT_DB})`,
  },
  { flag: 'memory', env: 'ASHLAR_MEMORY', type: 'boolean', help: 'keep the chain in memory only (lost on exit)' },
  { flag: 'chain-id', env: 'ASHLAR_CHAIN_ID', type: 'string', value: 'ID', help: 'chain id (default 31337)' },
  {
    flag: 'accounts',
    env: 'ASHLAR_ACCOUNTS',
    type: 'string',
    value: 'N',
    help: 'number of funded dev accounts (default 20)',
  },
  {
    flag: 'balance',
    env: 'ASHLAR_BALANCE',
    type: 'string',
    value: 'ETH',
    help: 'balance of each dev account in ETH, decimals allowed (default 10000)',
  },
  {
    flag: 'mnemonic',
    env: 'ASHLAR_MNEMONIC',
    type: 'string',
    value: 'WORDS',
    help: 'mnemonic of the dev accounts (default "test test ... junk")',
  },
  {
    flag: 'hardfork',
    env: 'ASHLAR_HARDFORK',
    type: 'string',
    value: 'NAME',
    help: `hardfork rules (default ${DEFAULT_HARDFORK})`,
  },
  {
    flag: 'gas-limit',
    env: 'ASHLAR_GAS_LIMIT',
    type: 'string',
    value: 'GAS',
    help: 'block gas limit (default 30000000)',
  },
  {
    flag: 'base-fee',
    env: 'ASHLAR_BASE_FEE',
    type: 'string',
    value: 'WEI',
    help: 'base fee of the genesis block in wei (default 1000000000)',
  },
  {
    flag: 'block-time',
    env: 'ASHLAR_BLOCK_TIME',
    type: 'string',
    value: 'SECONDS',
    help: 'also mine a block every SECONDS (default 0 = off)',
  },
  {
    flag: 'no-automine',
    env: 'ASHLAR_NO_AUTOMINE',
    type: 'boolean',
    help: 'do not mine a block per transaction (use --block-time or evm_mine)',
  },
  {
    flag: 'genesis',
    env: 'ASHLAR_GENESIS',
    type: 'string',
    value: 'FILE',
    help: 'geth-format genesis.json: chain id, forks and allocation (instead of the dev genesis)',
  },
  {
    flag: 'import',
    env: 'ASHLAR_IMPORT',
    type: 'string',
    value: 'FILE',
    help: 'import concatenated RLP blocks (geth export format) before serving',
  },
  {
    flag: 'load-state',
    env: 'ASHLAR_LOAD_STATE',
    type: 'string',
    value: 'FILE',
    help: 'load accounts (balance, nonce, code, storage) from a dump file at start (anvil_loadState)',
  },
  {
    flag: 'dump-state',
    env: 'ASHLAR_DUMP_STATE',
    type: 'string',
    value: 'FILE',
    help: 'write the state (anvil_dumpState) to FILE when the node stops',
  },
  {
    flag: 'reindex',
    env: 'ASHLAR_REINDEX',
    type: 'boolean',
    help: 'rebuild the explorer index from the stored blocks on start',
  },
  {
    flag: 'no-call-frames',
    env: 'ASHLAR_NO_CALL_FRAMES',
    type: 'boolean',
    help: 'do not keep call frames of mined transactions (internal transactions are then replayed on request)',
  },
  {
    flag: 'artifacts',
    env: 'ASHLAR_ARTIFACTS',
    type: 'string',
    value: 'DIR',
    help: 'verify deployed contracts from a Hardhat or Foundry build folder (watched)',
  },
  // Hardhat / Anvil compatibility (docs/dev-methods.md).
  {
    flag: 'client-version',
    env: 'ASHLAR_CLIENT_VERSION',
    type: 'string',
    value: 'TEXT',
    help: `web3_clientVersion (default ${defaultClientVersion()}: the name test helpers accept)`,
  },
  {
    flag: 'send-defaults',
    env: 'ASHLAR_SEND_DEFAULTS',
    type: 'string',
    value: 'spec|hardhat',
    help: "eth_sendTransaction's gas and fees when left out: spec = legacy 10000 gwei, gas 90000; hardhat = EIP-1559 as Hardhat (default spec)",
  },
  {
    flag: 'revert-hash-only',
    env: 'ASHLAR_REVERT_HASH_ONLY',
    type: 'boolean',
    help: "a failed automined send answers its hash only (Anvil) instead of Hardhat's error with hash and revert data",
  },
  // Forking another chain (forkArgs.ts, docs/forking.md).
  ...FORK_OPTIONS,
  // Shared deployments: API keys, rate limits, request limits, TLS (accessArgs.ts, docs/access.md).
  ...ACCESS_OPTIONS,
  // The web explorer served to browsers on the same port (packages/explorer-ui).
  {
    flag: 'no-explorer-ui',
    env: 'ASHLAR_NO_EXPLORER_UI',
    type: 'boolean',
    help: 'do not serve the web explorer to browsers (JSON-RPC and /api/v2 are unchanged)',
  },
  { flag: 'silent', env: 'ASHLAR_SILENT', type: 'boolean', help: 'print nothing but errors' },
  {
    flag: 'log-format',
    env: 'ASHLAR_LOG_FORMAT',
    type: 'string',
    value: 'text|json',
    help: 'text lines, or one JSON object a line for services that read the output (default text)',
  },
  {
    flag: 'print-traces',
    env: 'ASHLAR_PRINT_TRACES',
    type: 'boolean',
    help: 'print the call tree of every mined transaction (functions named from verified contracts)',
  },
  {
    flag: 'verbose',
    env: 'ASHLAR_VERBOSE',
    type: 'boolean',
    help: 'log debug messages to stderr, and console.log lines of gas estimates',
  },
  { flag: 'help', type: 'boolean', short: 'h', help: 'print this help and exit' },
  { flag: 'version', type: 'boolean', short: 'V', help: 'print the version and exit' },
];

/** Column where `--help` starts an option's text; a longer name puts its text on the next line. */
const HELP_COLUMN = 30;

/** The text `ashlar --help` prints. */
export function usage(): string {
  const indent = ' '.repeat(HELP_COLUMN + 2);
  const rows = OPTIONS.map((o) => {
    const name = `${o.short ? `-${o.short}, ` : '    '}--${o.flag}${o.value ? ` ${o.value}` : ''}`;
    // At least two spaces between a name and its text, so neither runs into the other.
    const head = name.length + 2 <= HELP_COLUMN ? `  ${name.padEnd(HELP_COLUMN)}` : `  ${name}\n${indent}`;
    return `${head}${o.help}${o.env ? `\n${indent}env: ${o.env}` : ''}`;
  });
  return [
    'Usage: ashlar [options]',
    '       ashlar import FILE.rlp [options]            import blocks into --db, then exit',
    '       ashlar export FILE.rlp [FROM [TO]] [options] write blocks FROM..TO (default 1..head) as RLP',
    '',
    'Runs an Ethereum dev chain with a JSON-RPC server on http://HOST:PORT.',
    '',
    'Options:',
    ...rows,
    '',
    'Every option can also be set by its environment variable; flags win over the environment.',
    'Boolean variables take 1/true/yes/on or 0/false/no/off.',
    `Hardforks: ${SUPPORTED_HARDFORKS.join(', ')}`,
    '',
  ].join('\n');
}

function bad(source: string, raw: string, expected: string): never {
  throw new CliArgsError(`invalid value for ${source}: ${JSON.stringify(raw)} (expected ${expected})`);
}

function parseInteger(source: string, raw: string, min: bigint, max: bigint | undefined, expected: string): bigint {
  const s = raw.trim();
  if (!/^(0|[1-9][0-9]*)$/.test(s) && !/^0x[0-9a-fA-F]+$/.test(s)) bad(source, raw, expected);
  const n = BigInt(s);
  if (n < min || (max !== undefined && n > max)) bad(source, raw, expected);
  return n;
}

/** "1.5" ETH → 1500000000000000000n wei, exactly. */
function parseEther(source: string, raw: string): bigint {
  const m = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/.exec(raw.trim());
  const expected = 'a non-negative amount of ETH with at most 18 decimals';
  if (!m) bad(source, raw, expected);
  const whole = m[1] ?? '0';
  const frac = m[2] ?? m[3] ?? '';
  if (frac.length > 18) bad(source, raw, expected);
  return BigInt(whole) * 10n ** 18n + BigInt(frac.padEnd(18, '0') || '0');
}

function parseBool(source: string, raw: string): boolean {
  const s = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(s)) return false;
  bad(source, raw, 'one of 1, true, yes, on, 0, false, no, off');
}

function rewriteParseError(e: unknown): never {
  const err = e as { code?: string; message?: string };
  const msg = err.message ?? String(e);
  const quoted = /'([^']+)'/.exec(msg)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      throw new CliArgsError(`unknown option ${quoted ?? msg} (see --help)`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = /--[a-z-]+/.exec(msg)?.[0] ?? quoted ?? msg;
      if (/argument missing/.test(msg)) throw new CliArgsError(`option ${flag} needs a value`);
      throw new CliArgsError(`option ${flag} does not take a value`);
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      throw new CliArgsError(`unexpected argument ${JSON.stringify(quoted ?? msg)} (see --help)`);
    default:
      throw new CliArgsError(msg.split('\n')[0]);
  }
}

/**
 * Merges argv (without `node` and the script), `ASHLAR_*` environment variables and defaults.
 * Pure: throws CliArgsError naming the flag (or variable) of an invalid value.
 */
export function parseCliArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliConfig {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const o of OPTIONS) {
    options[o.flag] = {
      type: o.type,
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
    };
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (e) {
    rewriteParseError(e);
  }

  /** The flag's value if given, else its variable's (unset or empty = absent), with its name for errors. */
  const pick = (flag: string): { raw: string; source: string } | undefined => {
    const v = values[flag];
    if (typeof v === 'string') return { raw: v, source: `--${flag}` };
    const spec = OPTIONS.find((o) => o.flag === flag)!;
    const e = spec.env ? env[spec.env] : undefined;
    if (e !== undefined && e !== '') return { raw: e, source: `${spec.env} (--${flag})` };
    return undefined;
  };
  const flagOn = (flag: string): boolean => {
    if (values[flag] === true) return true;
    const spec = OPTIONS.find((o) => o.flag === flag)!;
    const e = spec.env ? env[spec.env] : undefined;
    return e !== undefined ? parseBool(`${spec.env} (--${flag})`, e) : false;
  };

  const command = values.help === true ? 'help' : values.version === true ? 'version' : 'run';
  // --help and --version print and exit: other values do not matter, even invalid ones.
  if (command !== 'run') return { ...parseCliArgs([], {}), command };

  const hostP = pick('host');
  const host = hostP ? hostP.raw.trim() : '127.0.0.1';
  if (hostP && host === '') bad(hostP.source, hostP.raw, 'a host name or IP address');

  const portP = pick('port');
  const port = portP ? Number(parseInteger(portP.source, portP.raw, 0n, 65535n, 'an integer from 0 to 65535')) : 8545;

  const fail = (message: string): never => {
    throw new CliArgsError(message);
  };
  const fork = parseForkArgs({ values, env, pick, flagOn, fail });

  // --db and --memory: flags beat variables; both flags together make no sense.
  const dbFlag = typeof values.db === 'string';
  if (dbFlag && values.memory === true) throw new CliArgsError('--db and --memory cannot be used together');
  // A fork without --db is a throwaway copy (as Anvil's and Hardhat's): in memory, its upstream answers cached on disk.
  const memory = values.memory === true || (!dbFlag && (flagOn('memory') || (fork !== undefined && !pick('db'))));
  const dbP = pick('db');
  if (dbP && dbP.raw.trim() === '') bad(dbP.source, dbP.raw, 'a directory');
  const db = memory ? undefined : (dbP?.raw ?? DEFAULT_DB);

  const chainIdP = pick('chain-id');
  const chainId = chainIdP
    ? parseInteger(chainIdP.source, chainIdP.raw, 1n, 2n ** 256n - 1n, 'a positive integer')
    : 31337n;

  const accountsP = pick('accounts');
  const accounts = accountsP
    ? Number(parseInteger(accountsP.source, accountsP.raw, 0n, 10_000n, 'an integer from 0 to 10000'))
    : 20;

  const balanceP = pick('balance');
  const balance = balanceP ? parseEther(balanceP.source, balanceP.raw) : 10_000n * 10n ** 18n;

  const mnemonicP = pick('mnemonic');
  const mnemonic = mnemonicP ? mnemonicP.raw.trim().split(/\s+/).join(' ') : DEFAULT_MNEMONIC;
  if (mnemonicP && mnemonic === '') bad(mnemonicP.source, mnemonicP.raw, 'a BIP-39 mnemonic');

  const hardforkP = pick('hardfork');
  const hardfork = hardforkP ? hardforkP.raw.trim() : DEFAULT_HARDFORK;
  if (hardforkP && !SUPPORTED_HARDFORKS.includes(hardfork))
    bad(hardforkP.source, hardforkP.raw, `one of ${SUPPORTED_HARDFORKS.join(', ')}`);

  const gasLimitP = pick('gas-limit');
  const gasLimit = gasLimitP
    ? parseInteger(gasLimitP.source, gasLimitP.raw, 21_000n, 2n ** 63n - 1n, 'an integer of at least 21000')
    : 30_000_000n;

  const baseFeeP = pick('base-fee');
  const baseFee = baseFeeP
    ? parseInteger(baseFeeP.source, baseFeeP.raw, 0n, 2n ** 256n - 1n, 'a non-negative integer number of wei')
    : 1_000_000_000n;

  const blockTimeP = pick('block-time');
  let blockTime = 0;
  if (blockTimeP) {
    const s = blockTimeP.raw.trim();
    blockTime = /^\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
    if (!Number.isFinite(blockTime) || blockTime < 0)
      bad(blockTimeP.source, blockTimeP.raw, 'a non-negative number of seconds');
  }

  const automine = !flagOn('no-automine');
  const verbose = flagOn('verbose');
  const printTraces = flagOn('print-traces');
  const silent = flagOn('silent');
  const logFormatP = pick('log-format');
  const logFormat = (logFormatP?.raw.trim().toLowerCase() ?? 'text') as LogFormat;
  if (logFormatP && !LOG_FORMATS.includes(logFormat))
    bad(logFormatP.source, logFormatP.raw, `one of ${LOG_FORMATS.join(', ')}`);

  const genesisP = pick('genesis');
  const genesisFile = genesisP?.raw.trim();
  if (genesisP && genesisFile === '') bad(genesisP.source, genesisP.raw, 'a genesis.json file');
  const loadStateFile = pick('load-state')?.raw.trim() || undefined;
  const dumpStateFile = pick('dump-state')?.raw.trim() || undefined;
  const artifactsP = pick('artifacts');
  const artifactsDir = artifactsP?.raw.trim();
  if (artifactsP && artifactsDir === '') bad(artifactsP.source, artifactsP.raw, 'a build folder');
  const importP = pick('import');
  const importFile = importP?.raw.trim();
  if (importP && importFile === '') bad(importP.source, importP.raw, 'an RLP file');

  // A genesis file brings its own chain id, forks, balances and gas limit; only explicit flags add to it.
  const chain: NonNullable<NodeOptions['chain']> = genesisFile
    ? { ...(chainIdP ? { chainId } : {}), mnemonic, accounts, ...(gasLimitP ? { gasLimit } : {}) }
    : {
        // A fork takes the upstream's chain id and block N's gas limit unless they are given.
        ...(fork && !chainIdP ? {} : { chainId }),
        ...(fork && !gasLimitP ? {} : { gasLimit }),
        hardfork,
        mnemonic,
        accounts,
        balance,
        baseFee,
      };
  if (fork && genesisFile) throw new CliArgsError('--fork-url and --genesis cannot be used together');
  if (flagOn('no-call-frames')) chain.callFrames = false;
  const access = parseAccessArgs({
    values,
    env,
    pick,
    flagOn,
    fail: (message) => {
      throw new CliArgsError(message);
    },
  });
  const clientVersionP = pick('client-version');
  const clientVersion = clientVersionP?.raw.trim();
  if (clientVersionP && clientVersion === '')
    bad(clientVersionP.source, clientVersionP.raw, 'a non-empty version text');
  const sendDefaultsP = pick('send-defaults');
  const sendDefaults = sendDefaultsP?.raw.trim().toLowerCase();
  if (sendDefaultsP && !SEND_DEFAULTS.includes(sendDefaults as SendDefaults))
    bad(sendDefaultsP.source, sendDefaultsP.raw, `one of ${SEND_DEFAULTS.join(', ')}`);
  const node: NodeOptions = {
    ...(clientVersion ? { clientVersion } : {}),
    ...(sendDefaults ? { sendDefaults: sendDefaults as SendDefaults } : {}),
    ...(flagOn('revert-hash-only') ? { throwOnTransactionFailures: false } : {}),
    // console.sol lines of gas estimates are printed only when debugging.
    ...(verbose ? { consoleInEstimates: true } : {}),
    ...(memory ? { memory: true } : { db }),
    chain,
    mining: { automine, blockTime },
    ...(access.rpc ? { rpc: access.rpc } : {}),
    ...(flagOn('reindex') ? { reindex: true } : {}),
    ...(artifactsDir ? { artifacts: artifactsDir } : {}),
    ...(fork ? { fork } : {}),
  };
  return {
    command,
    ...(loadStateFile ? { loadStateFile } : {}),
    ...(dumpStateFile ? { dumpStateFile } : {}),
    host,
    port,
    db,
    memory,
    chainId,
    accounts,
    balance,
    mnemonic,
    hardfork,
    gasLimit,
    baseFee,
    blockTime,
    automine,
    verbose,
    printTraces,
    silent,
    logFormat,
    ...(genesisFile ? { genesisFile } : {}),
    ...(importFile ? { importFile } : {}),
    node,
    server: { host, port, ...access.server, ...(flagOn('no-explorer-ui') ? { explorerUi: false } : {}) },
  };
}
