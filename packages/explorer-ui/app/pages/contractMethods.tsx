// A verified contract's methods: read methods (current values, and a form for those with
// arguments, answered by /api/v2's query-read-method) and write methods (a form each that sends
// eth_sendTransaction from a dev account the node holds, or through window.ethereum when present).
import { useEffect, useState } from 'preact/hooks';
import { encodeArgs, canEncode } from '../abiEncode.js';
import { postJson, rpc } from '../api.js';
import { formatValue } from '../format.js';
import { useApi } from '../hooks.js';
import { Loading, Table, TxLink } from '../ui.js';

interface Param {
  name: string;
  type: string;
}

interface Method {
  type?: string;
  name: string;
  method_id: string;
  stateMutability?: string;
  inputs?: Param[];
  outputs?: (Param & { value?: unknown })[];
  error?: string;
}

interface QueryAnswer {
  is_error: boolean;
  result: { names?: string[]; output?: { type: string; value: unknown }[]; message?: string; name?: string };
}

const signature = (m: Method) => `${m.name}(${(m.inputs ?? []).map((i) => `${i.type} ${i.name}`.trim()).join(', ')})`;

/** One labelled text input per argument; values come back in order. */
function ArgInputs({ m, values, set }: { m: Method; values: string[]; set: (v: string[]) => void }) {
  return (
    <>
      {(m.inputs ?? []).map((p, i) => (
        <label key={`${i}-${p.name}`} class="arg">
          <span>
            {p.name || `#${i}`} <span class="muted">{p.type}</span>
          </span>
          <input
            name={p.name || `arg${i}`}
            value={values[i] ?? ''}
            placeholder={p.type === 'bool' ? 'true / false' : p.type}
            spellcheck={false}
            autocomplete="off"
            onInput={(e) => {
              const next = [...values];
              next[i] = (e.target as HTMLInputElement).value;
              set(next);
            }}
          />
        </label>
      ))}
    </>
  );
}

/** A read method with arguments: its form and the answer of query-read-method. */
function ReadForm({ hash, m }: { hash: string; m: Method }) {
  const [values, setValues] = useState<string[]>([]);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const query = async (e: Event) => {
    e.preventDefault();
    try {
      const [a] = await postJson<QueryAnswer[]>(`/api/v2/smart-contracts/${hash}/query-read-method`, {
        method_id: m.method_id,
        args: (m.inputs ?? []).map((_, i) => values[i] ?? ''),
      });
      if (!a) throw new Error('no answer');
      setAnswer(
        a.is_error
          ? { ok: false, text: a.result.name ?? a.result.message ?? 'call failed' }
          : { ok: true, text: (a.result.output ?? []).map((o) => formatValue(o.value)).join(', ') },
      );
    } catch (err) {
      setAnswer({ ok: false, text: (err as Error).message });
    }
  };
  return (
    <form class="method" onSubmit={query} aria-label={`Query ${m.name}`}>
      <ArgInputs m={m} values={values} set={setValues} />
      <button type="submit">Query</button>
      {answer && (
        <output data-field="result" class={answer.ok ? 'wrap' : 'badge error'}>
          {answer.text}
        </output>
      )}
    </form>
  );
}

/** A verified contract's view functions: current values of those without arguments, a form for the rest. */
export function ReadMethods({ hash }: { hash: string }) {
  const { data } = useApi<Method[]>(`/api/v2/smart-contracts/${hash}/methods-read`);
  if (!data) return <Loading />;
  if (data.length === 0) return <p class="muted">No read methods.</p>;
  return (
    <Table caption="Read methods" head={['Method', 'Value']}>
      {data.map((m) => (
        <tr key={m.method_id} data-method={m.name}>
          <td>
            <code>{signature(m)}</code>
          </td>
          <td>
            {m.error ? (
              <span class="badge error">{m.error}</span>
            ) : (m.inputs ?? []).length > 0 ? (
              <ReadForm hash={hash} m={m} />
            ) : (
              <code class="wrap">{(m.outputs ?? []).map((o) => formatValue(o.value)).join(', ')}</code>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** The injected wallet when there is one, else the node's own JSON-RPC. */
function provider(): { send: <T>(method: string, params?: unknown[]) => Promise<T>; injected: boolean } {
  const injected = (window as unknown as { ethereum?: Eip1193 }).ethereum;
  if (injected)
    return { send: async (method, params) => (await injected.request({ method, params })) as never, injected: true };
  return { send: rpc, injected: false };
}

/** A write method: its form, sent as eth_sendTransaction from the chosen account. */
function WriteForm({ hash, m, from }: { hash: string; m: Method; from: string }) {
  const [values, setValues] = useState<string[]>([]);
  const [value, setValue] = useState('');
  const [result, setResult] = useState<{ hash?: string; error?: string } | null>(null);
  const types = (m.inputs ?? []).map((p) => p.type);
  const payable = m.stateMutability === 'payable';
  const send = async (e: Event) => {
    e.preventDefault();
    try {
      const data = m.method_id.replace(/^(0x)?/, '0x') + encodeArgs(types, values);
      const tx: Record<string, string> = { from, to: hash, data };
      if (payable && value.trim() !== '') tx.value = `0x${BigInt(value.trim()).toString(16)}`;
      setResult({ hash: await provider().send<string>('eth_sendTransaction', [tx]) });
    } catch (err) {
      setResult({ error: (err as Error).message });
    }
  };
  return (
    <form class="method" data-write={m.name} onSubmit={send} aria-label={`Write ${m.name}`}>
      <h4>
        <code>{signature(m)}</code>
      </h4>
      {canEncode(types) ? (
        <>
          <ArgInputs m={m} values={values} set={setValues} />
          {payable && (
            <label class="arg">
              <span>
                value <span class="muted">wei</span>
              </span>
              <input name="value" value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
            </label>
          )}
          <button type="submit" disabled={!from}>
            Send
          </button>
        </>
      ) : (
        <p class="muted">Arrays and tuples are not supported by this form.</p>
      )}
      {result?.hash && (
        <p data-field="write-tx">
          Sent: <TxLink hash={result.hash} />
        </p>
      )}
      {result?.error && <output class="badge error">{result.error}</output>}
    </form>
  );
}

/** A verified contract's state-changing functions, sent from an account chosen in a select. */
export function WriteMethods({ hash }: { hash: string }) {
  const { data } = useApi<Method[]>(`/api/v2/smart-contracts/${hash}/methods-write`);
  const [accounts, setAccounts] = useState<string[]>([]);
  const [from, setFrom] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    const p = provider();
    p.send<string[]>(p.injected ? 'eth_requestAccounts' : 'eth_accounts')
      .then((list) => {
        setAccounts(list);
        setFrom(list[0] ?? '');
      })
      .catch((e: Error) => setError(e.message));
  }, []);
  if (!data) return <Loading />;
  const functions = data.filter((m) => (m.type ?? 'function') === 'function');
  if (functions.length === 0) return <p class="muted">No write methods.</p>;
  return (
    <div class="writes">
      <label class="arg">
        <span>Send from</span>
        <select value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
          {accounts.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      {error && <p class="badge error">{error}</p>}
      {accounts.length === 0 && !error && <p class="muted">The node holds no accounts to send from.</p>}
      {functions.map((m) => (
        <WriteForm key={m.method_id} hash={hash} m={m} from={from} />
      ))}
    </div>
  );
}
