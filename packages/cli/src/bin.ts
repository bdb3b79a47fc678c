#!/usr/bin/env node
// First: heap and compiler flags must be set before the rest of the node loads (see heapFlags.ts,
// jitFlags.ts), and V8's helper threads lowered in priority while they are the only ones (helperThreads.ts).
import './helperPriority.js';
import './heapFlags.js';
import './jitFlags.js';
import { readFile, writeFile } from 'node:fs/promises';
import {
  type Kernel,
  type KernelServices,
  type Logger,
  VERSION,
  decodeDump,
  dumpNodeState,
  encodeDump,
  loadNodeState,
} from '@ashlar/core';
import { explorerOf } from '@ashlar/explorer';
import { type CliConfig, parseCliArgs, usage } from './args.js';
import { bannerInfo, formatBanner } from './banner.js';
import { type ChainCommand, parseChainCommand, runChainCommand } from './chainCommands.js';
import { importErrorLine, importFile, readGenesisFile } from './chainFiles.js';
import { consolePrinter } from './consoleOutput.js';
import { tracePrinter, verifiedNames } from './printTraces.js';
import { type LogFormat, txLinePrinter } from './txLog.js';
import { batchedWrites } from './batchedWrites.js';
import { stdoutWriter } from './stdoutWriter.js';
import { createNode } from './createNode.js';
import { type RunningServer, startServer } from './server.js';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const oneLine = (s: string): string => s.split('\n')[0].trim();

/** Start-up failure: one line on stderr, exit code 1, no stack trace. */
function die(message: string): never {
  process.stderr.write(`ashlar: error: ${oneLine(message)}\n`);
  process.exit(1);
}

/** Log lines on stderr: text, or JSON objects (`--log-format json`); `--silent` keeps only errors. */
function stderrLogger(verbose: boolean, format: LogFormat = 'text', silent = false): Logger {
  const line = (level: string, msg: string) =>
    process.stderr.write(
      format === 'json'
        ? `${JSON.stringify({ level, time: new Date().toISOString(), msg })}\n`
        : `ashlar: ${level}: ${msg}\n`,
    );
  return {
    info: (m) => {
      if (!silent) line('info', m);
    },
    warn: (m) => {
      if (!silent) line('warn', m);
    },
    error: (m) => line('error', m),
    debug: (m) => {
      if (verbose) line('debug', m);
    },
  };
}

function listenError(e: unknown, config: CliConfig): string {
  const code = (e as { code?: string }).code;
  const where = `port ${config.port} on ${config.host}`;
  if (code === 'EADDRINUSE') return `${where} is in use`;
  if (code === 'EACCES') return `permission denied to listen on ${where}`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${config.host}: address not available`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot listen on ${config.host}: unknown host`;
  return `cannot listen on ${where}: ${errorText(e)}`;
}

/** `--load-state`: a file holding anvil_dumpState's answer (hex) or the dump as JSON. */
async function loadStateFile(services: KernelServices, file: string): Promise<void> {
  const text = (await readFile(file, 'utf8')).trim();
  await loadNodeState(services, decodeDump(text.startsWith('{') ? JSON.parse(text) : text));
}

/** `--dump-state`: writes anvil_dumpState's answer, which --load-state (and anvil_loadState) read back. */
async function dumpStateFile(services: KernelServices, file: string): Promise<void> {
  await writeFile(file, `${encodeDump(await dumpNodeState(services))}\n`);
}

async function main(): Promise<void> {
  let config: CliConfig;
  let chainCommand: ChainCommand | undefined;
  try {
    chainCommand = parseChainCommand(process.argv.slice(2), process.env);
    config = chainCommand?.config ?? parseCliArgs(process.argv.slice(2), process.env);
  } catch (e) {
    die(errorText(e));
  }
  if (config.command === 'help') {
    process.stdout.write(usage());
    return;
  }
  if (config.command === 'version') {
    process.stdout.write(`ashlar ${VERSION}\n`);
    return;
  }

  const logger = stderrLogger(config.verbose, config.logFormat, config.silent);
  let kernel: Kernel;
  try {
    const node = config.genesisFile
      ? { ...config.node, chain: { ...config.node.chain, genesis: await readGenesisFile(config.genesisFile) } }
      : config.node;
    kernel = await createNode({ ...node, logger });
  } catch (e) {
    die(errorText(e));
  }
  if (chainCommand) {
    const code = await runChainCommand(chainCommand, kernel.services).catch((e) => {
      process.stderr.write(`ashlar: error: ${oneLine(errorText(e))}\n`);
      return 1;
    });
    await kernel.close();
    process.exit(code);
  }
  if (config.importFile) {
    try {
      const error = importErrorLine(await importFile(kernel.services, config.importFile, process.stderr));
      if (error) throw new Error(error);
    } catch (e) {
      await kernel.close().catch(() => undefined);
      die(errorText(e));
    }
  }
  if (config.loadStateFile) {
    try {
      await loadStateFile(kernel.services, config.loadStateFile);
    } catch (e) {
      await kernel.close().catch(() => undefined);
      die(`cannot load state from ${config.loadStateFile}: ${errorText(e)}`);
    }
  }
  let server: RunningServer;
  try {
    server = await startServer(kernel, config.server);
  } catch (e) {
    await kernel.close().catch(() => undefined);
    die(listenError(e, config));
  }
  // The explorer's /config/json-rpc-url names the endpoint it is served beside.
  const explorer = explorerOf(kernel);
  if (explorer) explorer.jsonRpcUrl = server.url;

  // From here on the node is up: an unexpected error is logged, never a silent death.
  process.on('uncaughtException', (e) => logger.error(`uncaught error: ${e instanceof Error ? (e.stack ?? e) : e}`));
  process.on('unhandledRejection', (e) =>
    logger.error(`unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      process.stderr.write(`ashlar: ${signal} again, exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    process.stderr.write('shutting down\n');
    const force = setTimeout(() => {
      process.stderr.write('ashlar: error: shutdown took longer than 10 s, exiting\n');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await server.close();
      if (config.dumpStateFile) await dumpStateFile(kernel.services, config.dumpStateFile);
      await kernel.close();
    } catch (e) {
      process.stderr.write(`ashlar: error: while shutting down: ${oneLine(errorText(e))}\n`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const out = (text: string) => process.stdout.write(text);
  // The kernel's chain id: a fork takes the upstream's unless --chain-id is given.
  const chainId = kernel.services.options.chain.chainId;
  if (config.logFormat === 'json' && !config.silent) {
    out(`${JSON.stringify({ type: 'listening', url: server.url, wsUrl: server.wsUrl, chainId: Number(chainId) })}\n`);
  } else if (!config.silent) await printBanner(kernel, config, server, logger);
  logger.debug(`serving chain ${chainId} on ${server.url} and ${server.wsUrl}`);
  // What happens on the chain, on stdout: one line per mined transaction, console.sol lines of
  // mined transactions and eth_call (and of estimates with --verbose); call trees with --print-traces.
  const names = verifiedNames(kernel);
  // All three through one batched writer, so their lines keep their order.
  const lines = batchedWrites(stdoutWriter(), 1);
  if (!config.silent) kernel.events.on('block', txLinePrinter(lines.write, config.logFormat, names));
  if (config.printTraces) kernel.events.on('block', tracePrinter(kernel.services, lines.write, config.logFormat));
  if (!config.silent) kernel.events.on('console', consolePrinter(lines.write, config.logFormat));
}

async function printBanner(kernel: Kernel, config: CliConfig, server: RunningServer, logger: Logger): Promise<void> {
  try {
    const info = await bannerInfo(kernel.services, config.db, server.url, server.wsUrl);
    if (config.server.explorerUi !== false) info.explorerUrl = `${server.url}/`;
    process.stdout.write(formatBanner(info, { color: process.stdout.isTTY === true && !process.env.NO_COLOR }));
  } catch (e) {
    // The node serves even if the banner cannot be built; still say where.
    logger.error(`cannot print the banner: ${errorText(e)}`);
    process.stdout.write(`Listening on ${server.url}\nWebSocket on ${server.wsUrl}\n`);
  }
}

main().catch((e) => die(errorText(e)));
