import { type CallFrame, type KernelServices, type StoredBlock, blockCallFrames } from '@ashlar/core';
import { type DecodedCall, decodeError, decodeInput, explorerOf } from '@ashlar/explorer';
import { type ContractNames, formatCallTree } from './traceOutput.js';
import type { LogFormat } from './txLog.js';

/** Contract names and ABIs from the explorer's verified contracts (--artifacts, verification API). */
export function verifiedNames(from: { readonly services: KernelServices } | KernelServices): ContractNames | undefined {
  const contracts = explorerOf(from)?.contracts;
  if (!contracts) return undefined;
  const text = (d: DecodedCall | null) =>
    d ? `${d.method_call.split('(')[0]}(${d.parameters.map((p) => valueText(p.value)).join(', ')})` : undefined;
  return {
    nameOf: (a) => contracts.get(a)?.name,
    describeCall: (a, input) => {
      const abi = contracts.abiOf(a);
      return abi ? text(decodeInput(abi, input)) : undefined;
    },
    describeError: (a, output) => {
      const abi = contracts.abiOf(a);
      return abi ? text(decodeError(abi, output)) : undefined;
    },
  };
}

function valueText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * `--print-traces`: the call tree of every transaction of each new block, from the frames the
 * miner kept (or a replay of the block when call frames are off). Printed as the block lands,
 * before its console.log lines.
 */
export function tracePrinter(
  services: KernelServices,
  write: (text: string) => void,
  format: LogFormat = 'text',
): (sb: StoredBlock) => void {
  const names = verifiedNames(services);
  const print = (sb: StoredBlock, frames: readonly (CallFrame | undefined)[]) => {
    sb.block.transactions.forEach((tx, i) => {
      const root = frames[i];
      if (!root) return;
      const txHash = `0x${Buffer.from(tx.hash()).toString('hex')}`;
      const tree = formatCallTree(txHash, root, names);
      write(format === 'json' ? `${JSON.stringify({ type: 'trace', txHash, tree })}\n` : tree);
    });
  };
  return (sb) => {
    if (sb.block.transactions.length === 0) return;
    if (sb.callFrames) return print(sb, sb.callFrames);
    blockCallFrames(services.chain, sb).then(
      (frames) => print(sb, frames),
      (e) => write(`cannot trace block ${sb.number}: ${e instanceof Error ? e.message : String(e)}\n`),
    );
  };
}
