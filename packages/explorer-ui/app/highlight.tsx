// Syntax highlighting of verified Solidity: one regular expression splits the source into
// comments, strings, numbers and keywords; everything else stays plain text. Colours are in
// style.css (.tk-*) with enough contrast on the code background in both themes.

const KEYWORDS =
  'pragma|import|contract|interface|library|abstract|function|modifier|event|error|struct|enum|mapping|' +
  'constructor|fallback|receive|returns|return|if|else|for|while|do|break|continue|emit|revert|require|' +
  'assert|new|delete|public|private|internal|external|view|pure|payable|constant|immutable|override|' +
  'virtual|memory|storage|calldata|indexed|anonymous|using|is|unchecked|assembly|try|catch|true|false|' +
  'address|bool|string|bytes\\d*|u?int\\d*|this|msg|block|tx|type';

const TOKENS = new RegExp(
  `(//[^\\n]*|/\\*[\\s\\S]*?\\*/)|("(?:[^"\\\\\\n]|\\\\.)*"|'(?:[^'\\\\\\n]|\\\\.)*')|\\b(0x[0-9a-fA-F]+|\\d[\\d_]*(?:\\.\\d+)?(?:e\\d+)?)\\b|\\b(${KEYWORDS})\\b`,
  'g',
);
const CLASSES = ['', 'tk-com', 'tk-str', 'tk-num', 'tk-kw'];

/** The source as text and <span class="tk-…"> pieces, in order. */
export function highlight(source: string): preact.ComponentChildren[] {
  const out: preact.ComponentChildren[] = [];
  let last = 0;
  for (const m of source.matchAll(TOKENS)) {
    const at = m.index ?? 0;
    if (at > last) out.push(source.slice(last, at));
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    out.push(
      <span key={at} class={CLASSES[group]}>
        {m[0]}
      </span>,
    );
    last = at + m[0].length;
  }
  if (last < source.length) out.push(source.slice(last));
  return out;
}
