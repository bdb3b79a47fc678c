/**
 * JSON-RPC ids come back byte for byte, as geth and Anvil answer: `{"id":9007199254740993}`
 * must not come back as `9007199254740992`. JSON.parse turns such a number into the nearest
 * double, so on the rare request whose id is a number a double cannot hold exactly (past 2^53,
 * or with a fraction), each such id is swapped for a unique placeholder string before the
 * engine runs, and the placeholder is swapped back for the id's original text in the answer.
 * The common request pays one typeof check per id.
 */

/** Turns the answer's text back into one carrying the original ids; undefined when no id needs it. */
export type IdRestorer = (answer: string) => string;

function unsafe(id: unknown): id is number {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

function needsRestore(payload: unknown): boolean {
  if (Array.isArray(payload)) {
    for (const item of payload) if (typeof item === 'object' && item !== null && unsafe(item.id)) return true;
    return false;
  }
  return typeof payload === 'object' && payload !== null && unsafe((payload as { id?: unknown }).id);
}

// A JSON number after an "id" key: every place the request may have written an id.
const ID_NUMBER = /"id"\s*:\s*(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * Rewrites `payload`'s unsafe numeric ids in place (placeholders) and returns the restorer, or
 * returns undefined (and changes nothing) when every id is safe.
 */
export function preserveRawIds(payload: unknown, text: string): IdRestorer | undefined {
  if (!needsRestore(payload)) return undefined;
  // Raw number texts in order; an id takes the first unused one that parses to the same double
  // (a nested "id" inside params is skipped that way).
  const raws = [...text.matchAll(ID_NUMBER)].map((m) => m[1]);
  const used = new Array<boolean>(raws.length).fill(false);
  const tag = `__ashlar_id_${Math.random().toString(36).slice(2)}_`;
  const back = new Map<string, string>();
  const swap = (item: Record<string, unknown>): void => {
    const id = item.id;
    if (!unsafe(id)) return;
    const i = raws.findIndex((r, k) => !used[k] && Number(r) === id);
    if (i === -1) return;
    used[i] = true;
    const placeholder = `${tag}${back.size}`;
    back.set(`"${placeholder}"`, raws[i]);
    item.id = placeholder;
  };
  if (Array.isArray(payload)) {
    for (const item of payload) if (typeof item === 'object' && item !== null) swap(item as Record<string, unknown>);
  } else swap(payload as Record<string, unknown>);
  if (back.size === 0) return undefined;
  return (answer) => {
    let out = answer;
    for (const [quoted, raw] of back) out = out.split(quoted).join(raw);
    return out;
  };
}
