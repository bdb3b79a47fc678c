import type { EVM, InterpreterStep } from '@ethereumjs/evm';

/** How many of the called contract's last pcs a revert keeps: enough to reach the statement past a shared revert tail and the error's ABI encoding. */
const KEPT = 1024;

/**
 * Runs `fn` noting the pcs the called contract itself (depth 0) executed up to its last REVERT,
 * newest first (the REVERT's own pc first): the optimizer shares one REVERT among several
 * `revert`/`require` statements, so the statement is found walking back from it. Listening to
 * every step slows the EVM, so callers turn this on only when they can map pcs to lines (`on`).
 */
export async function withRevertPcs<T>(
  evm: EVM,
  on: boolean,
  fn: () => Promise<T>,
): Promise<{ value: T; pcs: number[] | undefined }> {
  if (!on) return { value: await fn(), pcs: undefined };
  const ring = new Int32Array(KEPT);
  let count = 0;
  let pcs: number[] | undefined;
  const onStep = (step: InterpreterStep): void => {
    if (step.depth !== 0) return;
    ring[count++ % KEPT] = step.pc;
    if (step.opcode.name !== 'REVERT') return;
    pcs = [];
    for (let i = count - 1; i >= Math.max(0, count - KEPT); i--) pcs.push(ring[i % KEPT] as number);
  };
  evm.events.on('step', onStep);
  try {
    const value = await fn();
    return { value, pcs };
  } finally {
    evm.events.off('step', onStep);
  }
}
