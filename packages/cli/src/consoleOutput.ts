import type { ConsoleEvent } from '@ashlar/core';
import type { LogFormat } from './txLog.js';

/**
 * Prints the kernel's console.sol lines as a dev node does: a heading naming the mined
 * transaction (or the call) they came from, then one indented line each. Lines of one
 * transaction or call arrive together, so a heading is printed when the source changes.
 */
export function consolePrinter(
  write: (text: string) => void,
  format: LogFormat = 'text',
): (event: ConsoleEvent) => void {
  let last: ConsoleEvent['call'] | string | undefined;
  return (event) => {
    if (format === 'json') {
      write(`${JSON.stringify({ type: 'console', ...event })}\n`);
      return;
    }
    // The lines of one call share its `call` object; those of a transaction its hash.
    const source = event.txHash ?? event.call;
    if (source !== last) {
      last = source;
      write(`${heading(event)}\n`);
    }
    for (const line of event.message.split('\n')) write(line === '' ? '\n' : `  ${line}\n`);
  };
}

function heading(event: ConsoleEvent): string {
  if (event.txHash) return `console.log (transaction ${event.txHash}):`;
  const call = event.call;
  return `console.log (${call?.method ?? 'call'}${call?.to ? ` to ${call.to}` : ''}):`;
}
