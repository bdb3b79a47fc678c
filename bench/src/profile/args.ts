// What the harness-driven profiling scripts beside this one share: the checkout's root and their
// `--name=value` options.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root (this file is bench/src/profile/args.ts). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The script's arguments after node and the script. */
export const argv = process.argv.slice(2);

/** The value of `--name=value`, or `fallback` when it is not given. */
export const opt = (name: string, fallback: string): string =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
