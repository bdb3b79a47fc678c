/**
 * An error with a JSON-RPC wire code: what `kernel.request` and the EIP-1193 provider throw
 * (`code`, `message`, `data`), and what a plugin throws to answer with a code of its own.
 * `ashlarCode` is the domain code in-process callers match on: an `ASHLAR_ERR_*` code, or the
 * plugin's own (e.g. `ACME_ERR_NOTE_NOT_FOUND`).
 */
export class RpcRequestError extends Error {
  readonly code: number;
  readonly data?: unknown;
  readonly ashlarCode?: string;
  constructor(code: number, message: string, data?: unknown, ashlarCode?: string) {
    super(message);
    this.name = 'RpcRequestError';
    this.code = code;
    if (data !== undefined) this.data = data;
    if (ashlarCode !== undefined) this.ashlarCode = ashlarCode;
  }
}
