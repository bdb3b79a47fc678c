import { type CallFrame, decodeConsoleCall, decodeRevertReason, formatConsoleArgs } from '@ashlar/core';

/** What the printer knows of a contract: its name and a decoder of calls to it (a verified ABI). */
export interface ContractNames {
  nameOf(address: string): string | undefined;
  /** `name(arg, …)` of a call's input, or undefined when no ABI names its selector. */
  describeCall(address: string, input: Uint8Array): string | undefined;
  /** A custom error's `Name(arg, …)` from revert data, or undefined. */
  describeError?(address: string, output: Uint8Array): string | undefined;
}

const CONSOLE_ADDRESS = '0x000000000000000000636f6e736f6c652e6c6f67';
const hex = (b: Uint8Array) => `0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`;

/**
 * The call tree of a mined transaction, as Anvil's `--print-traces` shows one: each frame's gas
 * used, kind, contract (its name when verified), function and arguments (decoded with the ABI
 * when known, else the selector and raw data), value, and how it ended; console.sol calls show
 * their line in place.
 */
export function formatCallTree(txHash: string, root: CallFrame, names?: ContractNames): string {
  const lines = [`Traces (transaction ${txHash}):`];
  // Every frame ends with its outcome line (└─ ←), so its calls are never the last branch.
  const walk = (f: CallFrame, prefix: string, top: boolean): void => {
    const childPrefix = top ? '    ' : `${prefix}│  `;
    lines.push(`${top ? '  ' : `${prefix}├─ `}${frameText(f, names)}`);
    for (const c of f.calls) walk(c, childPrefix, false);
    if (f.to !== CONSOLE_ADDRESS) lines.push(`${childPrefix}└─ ← ${outcome(f, names)}`);
  };
  walk(root, '', true);
  return `${lines.join('\n')}\n`;
}

function frameText(f: CallFrame, names?: ContractNames): string {
  if (f.to === CONSOLE_ADDRESS) {
    const args = decodeConsoleCall(f.input);
    if (args) return `[${f.gasUsed}] console.log(${JSON.stringify(formatConsoleArgs(args))})`;
  }
  const name = names?.nameOf(f.to);
  const target = name ? `${name}(${f.to})` : f.to;
  const value = f.value > 0n ? ` {value: ${f.value}}` : '';
  const kind = f.type === 'CALL' ? '' : ` [${f.type.toLowerCase()}]`;
  if (f.type === 'CREATE' || f.type === 'CREATE2') return `[${f.gasUsed}] → new ${target}${value}${kind}`;
  if (f.type === 'SELFDESTRUCT') return `[${f.gasUsed}] selfdestruct → ${target}${value}`;
  return `[${f.gasUsed}] ${target}::${callText(f, names)}${value}${kind}`;
}

function callText(f: CallFrame, names?: ContractNames): string {
  if (f.input.length === 0) return 'receive()';
  const described = names?.describeCall(f.to, f.input);
  if (described) return described;
  if (f.input.length < 4) return `fallback(${hex(f.input)})`;
  const rest = f.input.length > 4 ? hex(f.input.subarray(4)) : '';
  return `${hex(f.input.subarray(0, 4))}(${rest})`;
}

function outcome(f: CallFrame, names?: ContractNames): string {
  if (f.error === undefined) {
    if (f.type === 'CREATE' || f.type === 'CREATE2') return `${f.output.length} bytes of code`;
    return f.output.length === 0 ? '[Stop]' : `[Return] ${hex(f.output)}`;
  }
  if (f.error !== 'revert') return `[${f.error}]`;
  const reason = decodeRevertReason(f.output);
  if (reason !== undefined) return `[Revert] ${reason}`;
  const custom = names?.describeError?.(f.to, f.output);
  if (custom) return `[Revert] ${custom}`;
  return f.output.length === 0 ? '[Revert]' : `[Revert] ${hex(f.output)}`;
}
