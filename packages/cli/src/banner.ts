import { resolve } from 'node:path';
import { type KernelServices, VERSION, balanceAt } from '@ashlar/core';
import { HD_PATH } from './args.js';

export interface BannerAccount {
  address: string;
  privateKey: string;
  /** Current balance in wei. */
  balance: bigint;
}

/** What the banner shows; plain data so it can be formatted (and tested) without a node. */
export interface BannerInfo {
  version: string;
  /** Absolute LevelDB directory, or undefined for memory. */
  db: string | undefined;
  /** Head block number at start (non-zero when a chain was resumed). */
  head: bigint;
  chainId: bigint;
  hardfork: string;
  accounts: readonly BannerAccount[];
  mnemonic: string;
  hdPath: string;
  gasLimit: bigint;
  baseFee: bigint;
  automine: boolean;
  /** Seconds; 0 = off. */
  blockTime: number;
  url: string;
  /** WebSocket URL (same host and port), when served. */
  wsUrl?: string;
  /** Where a browser opens the web explorer, when served. */
  explorerUrl?: string;
  /** The upstream a forked chain copies (URL without credentials) and its fork block. */
  fork?: { url: string; block: bigint };
}

const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;

/** Reads what the banner needs from a running kernel's services: its resolved options, accounts and their balances. */
export async function bannerInfo(
  services: KernelServices,
  db: string | undefined,
  url: string,
  wsUrl?: string,
): Promise<BannerInfo> {
  const o = services.options;
  const accounts: BannerAccount[] = [];
  for (const a of services.chain.accounts) {
    const address = a.address.toString();
    const balance = await balanceAt(services.chain, a.address);
    accounts.push({ address, privateKey: hex(a.privateKey), balance });
  }
  const head = services.chain.head.number;
  return {
    version: VERSION,
    db: db === undefined ? undefined : resolve(db),
    head,
    chainId: o.chain.chainId,
    hardfork: o.chain.hardfork,
    accounts,
    mnemonic: o.chain.mnemonic,
    hdPath: HD_PATH,
    gasLimit: o.chain.gasLimit,
    baseFee: o.chain.baseFee,
    automine: o.mining.automine,
    blockTime: o.mining.blockTime,
    url,
    ...(wsUrl === undefined ? {} : { wsUrl }),
    ...(services.chain.fork
      ? { fork: { url: services.chain.fork.client.displayUrl, block: services.chain.fork.number } }
      : {}),
  };
}

/** Wei as a decimal ETH amount without trailing zeros: 1500000000000000000n → "1.5". */
export function formatEther(wei: bigint): string {
  const neg = wei < 0n;
  const v = neg ? -wei : wei;
  const whole = v / 10n ** 18n;
  const frac = (v % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

function formatGwei(wei: bigint): string {
  const whole = wei / 10n ** 9n;
  const frac = (wei % 10n ** 9n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''} gwei`;
}

export function miningMode(automine: boolean, blockTime: number): string {
  if (automine && blockTime > 0) return `automine, and a block every ${blockTime}s`;
  if (automine) return 'automine (a block per transaction)';
  if (blockTime > 0) return `interval (a block every ${blockTime}s)`;
  return 'manual (evm_mine)';
}

/** The start-up text; ANSI colours only when `color` is true (a TTY). */
export function formatBanner(info: BannerInfo, options: { color?: boolean } = {}): string {
  const c = (code: number) => (s: string) => (options.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const bold = c(1);
  const dim = c(2);
  const green = c(32);
  const cyan = c(36);
  const heading = (s: string) => [bold(s), '='.repeat(s.length)];
  const width = String(Math.max(0, info.accounts.length - 1)).length;
  const idx = (i: number) => `(${i})`.padEnd(width + 2);

  const storage =
    info.db === undefined
      ? 'memory (the chain is lost on exit)'
      : `${info.db} (LevelDB${info.head > (info.fork?.block ?? 0n) ? `, resumed at block ${info.head}` : ''})`;

  const lines = [
    bold(`Ashlar v${info.version}`) + dim(' - Ethereum dev chain'),
    '',
    `Storage:      ${storage}`,
    ...(info.fork ? [`Fork:         ${info.fork.url} at block ${info.fork.block}`] : []),
    `Chain id:     ${info.chainId}`,
    `Hardfork:     ${info.hardfork}`,
    `Gas limit:    ${info.gasLimit}`,
    `Base fee:     ${info.baseFee} wei (${formatGwei(info.baseFee)})`,
    `Mining:       ${miningMode(info.automine, info.blockTime)}`,
    '',
    ...heading('Available accounts'),
    ...(info.accounts.length === 0
      ? ['(none)']
      : info.accounts.map((a, i) => `${idx(i)} ${a.address} (${formatEther(a.balance)} ETH)`)),
    '',
    ...heading('Private keys'),
    ...(info.accounts.length === 0 ? ['(none)'] : info.accounts.map((a, i) => `${idx(i)} ${a.privateKey}`)),
    '',
    ...heading('HD wallet'),
    `Mnemonic:     ${info.mnemonic}`,
    `HD path:      ${info.hdPath}/{index}`,
    '',
    dim('These keys are public: never use them on a real network.'),
    '',
    green(`Listening on ${cyan(info.url)}`),
    ...(info.wsUrl === undefined ? [] : [green(`WebSocket on ${cyan(info.wsUrl)}`)]),
    ...(info.explorerUrl === undefined ? [] : [green(`Explorer on ${cyan(info.explorerUrl)}`)]),
    '',
  ];
  return lines.join('\n');
}
