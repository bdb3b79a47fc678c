#!/usr/bin/env node
import { type Kernel, type Logger, VERSION } from '@ashlar/core';
import { type CliConfig, parseCliArgs, usage } from './args.js';
import { bannerInfo, formatBanner } from './banner.js';
import { createNode } from './createNode.js';
import { type RunningServer, startServer } from './server.js';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const oneLine = (s: string): string => s.split('\n')[0].trim();

/** Start-up failure: one line on stderr, exit code 1, no stack trace. */
function die(message: string): never {
  process.stderr.write(`ashlar: error: ${oneLine(message)}\n`);
  process.exit(1);
}

function stderrLogger(verbose: boolean): Logger {
  const line = (level: string, msg: string) => process.stderr.write(`ashlar: ${level}: ${msg}\n`);
  return {
    info: (m) => line('info', m),
    warn: (m) => line('warn', m),
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

async function main(): Promise<void> {
  let config: CliConfig;
  try {
    config = parseCliArgs(process.argv.slice(2), process.env);
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

  const logger = stderrLogger(config.verbose);
  let kernel: Kernel;
  try {
    kernel = await createNode({ ...config.node, logger });
  } catch (e) {
    die(errorText(e));
  }
  let server: RunningServer;
  try {
    server = await startServer(kernel, config.server);
  } catch (e) {
    await kernel.close().catch(() => undefined);
    die(listenError(e, config));
  }

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
      await kernel.close();
    } catch (e) {
      process.stderr.write(`ashlar: error: while shutting down: ${oneLine(errorText(e))}\n`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    const info = await bannerInfo(kernel, config.db, server.url);
    process.stdout.write(formatBanner(info, { color: process.stdout.isTTY === true && !process.env.NO_COLOR }));
  } catch (e) {
    // The node serves even if the banner cannot be built; still say where.
    logger.error(`cannot print the banner: ${errorText(e)}`);
    process.stdout.write(`Listening on ${server.url}\n`);
  }
  logger.debug(`serving chain ${config.chainId} on ${server.url}`);
}

main().catch((e) => die(errorText(e)));
