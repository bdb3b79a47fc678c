// `ashlar import FILE.rlp` and `ashlar export FILE.rlp [FROM [TO]]`: open the chain (the same
// flags as a node: --db, --memory, --genesis, …), move blocks in or out, close, exit.
import { parseArgs } from 'node:util';
import type { KernelServices } from '@ashlar/core';
import { CliArgsError, type CliConfig, OPTIONS, parseCliArgs } from './args.js';
import { exportFile, importErrorLine, importFile } from './chainFiles.js';

export type ChainCommand =
  | { command: 'import'; file: string; config: CliConfig }
  | { command: 'export'; file: string; from?: bigint; to?: bigint; config: CliConfig };

function blockNumber(raw: string, what: string): bigint {
  if (!/^(0|[1-9][0-9]*)$/.test(raw) && !/^0x[0-9a-fA-F]+$/.test(raw))
    throw new CliArgsError(`invalid ${what} block ${JSON.stringify(raw)} (expected a block number)`);
  return BigInt(raw);
}

/**
 * The subcommand in argv (without `node` and the script), or undefined when argv starts the
 * node. Positional arguments are taken out; the remaining flags are parsed as for the node.
 */
export function parseChainCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ChainCommand | undefined {
  const command = argv[0];
  if (command !== 'import' && command !== 'export') return undefined;
  const rest = argv.slice(1);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const o of OPTIONS) options[o.flag] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  let tokens: ReturnType<typeof parseArgs>['tokens'];
  try {
    tokens = parseArgs({ args: [...rest], options, strict: false, allowPositionals: true, tokens: true }).tokens;
  } catch (e) {
    throw new CliArgsError((e as Error).message.split('\n')[0]);
  }
  const positionals = (tokens ?? []).filter((t) => t.kind === 'positional');
  const flags = rest.filter((_, i) => !positionals.some((t) => t.index === i));
  const config = parseCliArgs(flags, env);
  const args = positionals.map((t) => t.value);
  const file = args[0];
  if (file === undefined) throw new CliArgsError(`ashlar ${command} needs a FILE.rlp argument`);
  if (command === 'import') {
    if (args.length > 1) throw new CliArgsError(`unexpected argument ${JSON.stringify(args[1])} (see --help)`);
    return { command, file, config };
  }
  if (args.length > 3) throw new CliArgsError(`unexpected argument ${JSON.stringify(args[3])} (see --help)`);
  const from = args[1] === undefined ? undefined : blockNumber(args[1], 'FROM');
  const to = args[2] === undefined ? undefined : blockNumber(args[2], 'TO');
  if (from !== undefined && to !== undefined && from > to) throw new CliArgsError(`FROM ${from} is after TO ${to}`);
  return { command, file, config, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** Runs a parsed subcommand on an open kernel's services; resolves to the process exit code. */
export async function runChainCommand(cmd: ChainCommand, services: KernelServices): Promise<number> {
  if (cmd.command === 'import') {
    const result = await importFile(services, cmd.file, process.stderr);
    const error = importErrorLine(result);
    if (error) {
      process.stderr.write(`ashlar: error: ${error}\n`);
      return 1;
    }
    return 0;
  }
  const count = await exportFile(services, cmd.file, cmd.from, cmd.to);
  process.stderr.write(`exported ${count} blocks to ${cmd.file}\n`);
  return 0;
}
