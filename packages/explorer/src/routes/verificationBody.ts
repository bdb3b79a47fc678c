import { HttpError } from '../http/errors.js';

/** Fields of a verification request, whichever encoding it came in. */
export interface VerificationBody {
  compilerVersion: string;
  contractName: string | undefined;
  /** Standard JSON input: an object, or its JSON text. */
  input: unknown;
  constructorArgs: string | undefined;
}

/**
 * The parts of a multipart/form-data body (what Blockscout's UI sends, the input as a file part).
 * The transport hands a non-JSON body over as text; the boundary is its first line.
 */
export function parseMultipart(text: string): Map<string, string> {
  const parts = new Map<string, string>();
  const firstLine = text.slice(0, text.indexOf('\r\n'));
  if (!firstLine.startsWith('--')) return parts;
  for (const chunk of text.split(firstLine).slice(1)) {
    if (chunk.startsWith('--')) break;
    const headEnd = chunk.indexOf('\r\n\r\n');
    if (headEnd === -1) continue;
    const name = /name="([^"]*)"/i.exec(chunk.slice(0, headEnd))?.[1];
    if (name !== undefined) parts.set(name, chunk.slice(headEnd + 4).replace(/\r\n$/, ''));
  }
  return parts;
}

/** A form (urlencoded or multipart) or JSON body as a flat field map. */
export function bodyFields(body: unknown): Map<string, unknown> {
  if (typeof body === 'string') {
    if (body.startsWith('--')) return parseMultipart(body);
    return new Map(new URLSearchParams(body));
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return new Map(Object.entries(body));
  return new Map();
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/**
 * POST /smart-contracts/{hash}/verification/via/standard-input: Blockscout's fields
 * (`compiler_version`, `contract_name`, `files` — the standard JSON input file — and
 * `constructor_args`); `input` (the JSON object itself) is accepted too.
 */
export function parseVerificationBody(body: unknown): VerificationBody {
  const f = bodyFields(body);
  let input: unknown = f.get('input');
  if (input === undefined) {
    const files = f.get('files');
    if (typeof files === 'object' && files !== null) input = Object.values(files)[0];
    else if (typeof files === 'string') input = files;
    else for (const [k, v] of f) if (k.startsWith('files')) input = v;
  }
  if (input === undefined) throw new HttpError(422, { message: 'files: the standard JSON input file is missing' });
  const compilerVersion = text(f.get('compiler_version'));
  if (!compilerVersion) throw new HttpError(422, { message: 'compiler_version is missing' });
  return {
    compilerVersion,
    contractName: text(f.get('contract_name')),
    input,
    constructorArgs: text(f.get('constructor_args')),
  };
}
