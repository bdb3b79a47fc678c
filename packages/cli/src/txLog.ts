import { type StoredBlock, decodeRevertReason } from '@ashlar/core';
import type { ContractNames } from './traceOutput.js';

/** How the CLI writes what happens on the chain: text lines, or one JSON object a line (`--log-format json`). */
export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

const hex = (b: Uint8Array) => `0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`;

export interface MinedTxLine {
  hash: string;
  block: bigint;
  gasUsed: bigint;
  status: 'success' | 'reverted';
  /** `Name#function`, `deploy Name`, `transfer`, or the 4-byte selector when no ABI names it. */
  method: string;
  /** The revert reason or custom error, when it reverted and one decodes. */
  reason?: string;
}

/** One line per transaction of a block: what was called, its gas, its block and how it ended. */
export function minedTxLines(sb: StoredBlock, names?: ContractNames): MinedTxLine[] {
  return sb.block.transactions.map((tx, i) => {
    const r = sb.receipts[i];
    const to = tx.to?.toString();
    const input = tx.data;
    let method: string;
    if (!to) {
      const created = r.contractAddress ? hex(r.contractAddress) : undefined;
      method = `deploy ${(created && names?.nameOf(created)) ?? 'contract'}`;
    } else if (input.length === 0) method = 'transfer';
    else {
      const name = names?.nameOf(to);
      const fn = names?.describeCall(to, input)?.split('(')[0] ?? hex(input.subarray(0, 4));
      method = name ? `${name}#${fn}` : fn;
    }
    const failed = r.status === 0 || r.error !== undefined;
    const line: MinedTxLine = {
      hash: hex(tx.hash()),
      block: sb.number,
      gasUsed: r.gasUsed,
      status: failed ? 'reverted' : 'success',
      method,
    };
    if (failed && r.returnData) {
      const reason = decodeRevertReason(r.returnData) ?? (to ? names?.describeError?.(to, r.returnData) : undefined);
      if (reason) line.reason = reason;
    }
    return line;
  });
}

export function formatTxLine(l: MinedTxLine, format: LogFormat): string {
  if (format === 'json') {
    return `${JSON.stringify({ type: 'transaction', ...l, block: Number(l.block), gasUsed: l.gasUsed.toString() })}\n`;
  }
  const status = l.status === 'success' ? 'success' : `reverted${l.reason ? `: ${l.reason}` : ''}`;
  return `Transaction ${l.hash}  ${l.method}  gas ${l.gasUsed}  block #${l.block}  ${status}\n`;
}

/** Writes the lines of each new block in one write (a block of many transactions is one syscall). */
export function txLinePrinter(
  write: (text: string) => void,
  format: LogFormat,
  names?: ContractNames,
): (sb: StoredBlock) => void {
  return (sb) => {
    if (sb.block.transactions.length === 0) return;
    const lines = minedTxLines(sb, names);
    let text = '';
    for (let i = 0; i < lines.length; i++) text += formatTxLine(lines[i], format);
    write(text);
  };
}
