// What holds the heap: reads a .heapsnapshot, computes each object's retained size (dominator
// tree, weak edges ignored as DevTools does) and prints the dominator tree down to holders of at
// least MIN KiB, named by class and the edge that holds them. With a second snapshot, prints the
// growth of each path (same walk, matched by path).
//
//   node --max-old-space-size=6000 --import tsx bench/src/profile/retainers.ts a.heapsnapshot [b.heapsnapshot]
//   env: MIN (KiB, default 512), DEPTH (default 14)
import { readFileSync } from 'node:fs';

interface Graph {
  names: string[];
  nodeType: Uint8Array;
  nodeName: Uint32Array;
  selfSize: Float64Array;
  firstEdge: Uint32Array;
  edgeType: Uint8Array;
  edgeName: Uint32Array;
  edgeTo: Uint32Array;
  nodeTypes: string[];
  edgeTypes: string[];
  n: number;
}

function load(file: string): Graph {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const meta = snap.snapshot.meta;
  const nf: string[] = meta.node_fields;
  const ef: string[] = meta.edge_fields;
  const NF = nf.length;
  const EF = ef.length;
  const nodes: number[] = snap.nodes;
  const edges: number[] = snap.edges;
  const n = nodes.length / NF;
  const iType = nf.indexOf('type');
  const iName = nf.indexOf('name');
  const iSize = nf.indexOf('self_size');
  const iEc = nf.indexOf('edge_count');
  const eType = ef.indexOf('type');
  const eName = ef.indexOf('name_or_index');
  const eTo = ef.indexOf('to_node');
  const g: Graph = {
    names: snap.strings,
    nodeType: new Uint8Array(n),
    nodeName: new Uint32Array(n),
    selfSize: new Float64Array(n),
    firstEdge: new Uint32Array(n + 1),
    edgeType: new Uint8Array(edges.length / EF),
    edgeName: new Uint32Array(edges.length / EF),
    edgeTo: new Uint32Array(edges.length / EF),
    nodeTypes: meta.node_types[iType],
    edgeTypes: meta.edge_types[eType],
    n,
  };
  let e = 0;
  for (let i = 0; i < n; i++) {
    g.nodeType[i] = nodes[i * NF + iType];
    g.nodeName[i] = nodes[i * NF + iName];
    g.selfSize[i] = nodes[i * NF + iSize];
    g.firstEdge[i] = e;
    e += nodes[i * NF + iEc];
  }
  g.firstEdge[n] = e;
  for (let j = 0; j < e; j++) {
    g.edgeType[j] = edges[j * EF + eType];
    g.edgeName[j] = edges[j * EF + eName];
    g.edgeTo[j] = edges[j * EF + eTo] / NF;
  }
  return g;
}

/** Immediate dominators (Lengauer-Tarjan with path compression), node 0 is the root; weak edges ignored. */
function dominators(g: Graph): { idom: Int32Array; retained: Float64Array } {
  const weak = g.edgeTypes.indexOf('weak');
  const { n } = g;
  // Preorder numbering by iterative DFS: dfn[v] (-1 unreached), vertex[i], parent (in numbers).
  const dfn = new Int32Array(n).fill(-1);
  const vertex = new Int32Array(n);
  const parent = new Int32Array(n);
  const edgeIdx = new Uint32Array(n);
  let m = 0;
  const stack: number[] = [0];
  dfn[0] = m;
  vertex[m++] = 0;
  edgeIdx[0] = g.firstEdge[0];
  while (stack.length) {
    const v = stack[stack.length - 1];
    let pushed = false;
    while (edgeIdx[v] < g.firstEdge[v + 1]) {
      const j = edgeIdx[v]++;
      if (g.edgeType[j] === weak) continue;
      const w = g.edgeTo[j];
      if (dfn[w] === -1) {
        dfn[w] = m;
        vertex[m] = w;
        parent[m] = dfn[v];
        m++;
        edgeIdx[w] = g.firstEdge[w];
        stack.push(w);
        pushed = true;
        break;
      }
    }
    if (!pushed) stack.pop();
  }
  // Predecessors in number space.
  const predStart = new Uint32Array(m + 1);
  for (let v = 0; v < n; v++) {
    if (dfn[v] < 0) continue;
    for (let j = g.firstEdge[v]; j < g.firstEdge[v + 1]; j++)
      if (g.edgeType[j] !== weak && dfn[g.edgeTo[j]] >= 0) predStart[dfn[g.edgeTo[j]] + 1]++;
  }
  for (let i = 0; i < m; i++) predStart[i + 1] += predStart[i];
  const preds = new Int32Array(predStart[m]);
  const fill = predStart.slice();
  for (let v = 0; v < n; v++) {
    if (dfn[v] < 0) continue;
    for (let j = g.firstEdge[v]; j < g.firstEdge[v + 1]; j++)
      if (g.edgeType[j] !== weak && dfn[g.edgeTo[j]] >= 0) preds[fill[dfn[g.edgeTo[j]]]++] = dfn[v];
  }
  const semi = new Int32Array(m);
  const label = new Int32Array(m);
  const ancestor = new Int32Array(m).fill(-1);
  const dom = new Int32Array(m);
  const bucketHead = new Int32Array(m).fill(-1);
  const bucketNext = new Int32Array(m).fill(-1);
  for (let i = 0; i < m; i++) {
    semi[i] = i;
    label[i] = i;
  }
  const path: number[] = [];
  const evalNode = (v: number): number => {
    if (ancestor[v] === -1) return v;
    // Compress the ancestor path of v (iteratively).
    let x = v;
    while (ancestor[ancestor[x]] !== -1) {
      path.push(x);
      x = ancestor[x];
    }
    while (path.length) {
      const y = path.pop() as number;
      const a = ancestor[y];
      if (semi[label[a]] < semi[label[y]]) label[y] = label[a];
      ancestor[y] = ancestor[a];
    }
    return label[v];
  };
  for (let w = m - 1; w >= 1; w--) {
    for (let k = predStart[w]; k < predStart[w + 1]; k++) {
      const u = evalNode(preds[k]);
      if (semi[u] < semi[w]) semi[w] = semi[u];
    }
    const s = semi[w];
    bucketNext[w] = bucketHead[s];
    bucketHead[s] = w;
    const p = parent[w];
    ancestor[w] = p;
    for (let v = bucketHead[p]; v !== -1; v = bucketNext[v]) {
      const u = evalNode(v);
      dom[v] = semi[u] < semi[v] ? u : p;
    }
    bucketHead[p] = -1;
  }
  for (let w = 1; w < m; w++) if (dom[w] !== semi[w]) dom[w] = dom[dom[w]];
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  for (let w = 1; w < m; w++) idom[vertex[w]] = vertex[dom[w]];
  // Retained sizes: children come after their dominator in preorder, so sum from the end.
  const retained = new Float64Array(n);
  for (let w = m - 1; w >= 0; w--) {
    const v = vertex[w];
    retained[v] += g.selfSize[v];
    if (w > 0) retained[vertex[dom[w]]] += retained[v];
  }
  return { idom, retained };
}

function label(g: Graph, v: number): string {
  const t = g.nodeTypes[g.nodeType[v]];
  const name = g.names[g.nodeName[v]];
  if (t === 'string' || t === 'concatenated string' || t === 'sliced string') return `(${t})`;
  if (t === 'object' || t === 'closure' || t === 'native') return name.length > 60 ? `${name.slice(0, 60)}…` : name;
  return `(${t}) ${name.slice(0, 40)}`;
}

/** For each node, the edge its immediate dominator holds it by (-1: held only through others). */
function idomEdges(g: Graph, idom: Int32Array): Int32Array {
  const by = new Int32Array(g.n).fill(-1);
  for (let v = 0; v < g.n; v++)
    for (let j = g.firstEdge[v]; j < g.firstEdge[v + 1]; j++) {
      const w = g.edgeTo[j];
      if (idom[w] === v && by[w] === -1) by[w] = j;
    }
  return by;
}

function edgeLabel(g: Graph, j: number): string {
  if (j < 0) return '~';
  const t = g.edgeTypes[g.edgeType[j]];
  if (t === 'element' || t === 'hidden') return `[${g.edgeName[j]}]`;
  const name = g.names[g.edgeName[j]];
  return /^\d+$/.test(name) ? `[${name}]` : `.${name}`;
}

interface Row {
  path: string;
  depth: number;
  retained: number;
  count: number;
}

/** Dominator tree walk: children grouped by (edge kind, label) so a Map's 50k entries read as one row. */
function walk(g: Graph, idom: Int32Array, retained: Float64Array, min: number, maxDepth: number): Row[] {
  const children = new Map<number, number[]>();
  for (let v = 1; v < g.n; v++) {
    const d = idom[v];
    if (d < 0) continue;
    const c = children.get(d);
    if (c) c.push(v);
    else children.set(d, [v]);
  }
  const heldBy = idomEdges(g, idom);
  const rows: Row[] = [];
  const visit = (group: number[], path: string, depth: number) => {
    let total = 0;
    for (const v of group) total += retained[v];
    if (total < min) return;
    rows.push({ path, depth, retained: total, count: group.length });
    if (depth >= maxDepth) return;
    // Group the children of the whole group by label.
    const byLabel = new Map<string, number[]>();
    for (const v of group) {
      for (const c of children.get(v) ?? []) {
        const el = edgeLabel(g, heldBy[c]);
        const key = `${/^\[\d+\]$/.test(el) ? '[]' : el} ${label(g, c)}`;
        const arr = byLabel.get(key);
        if (arr) arr.push(c);
        else byLabel.set(key, [c]);
      }
    }
    const sorted = [...byLabel.entries()].sort((a, b) => sum(b[1]) - sum(a[1]));
    for (const [k, arr] of sorted.slice(0, 12)) visit(arr, `${path} > ${k}`, depth + 1);
  };
  const sum = (a: number[]) => a.reduce((s, v) => s + retained[v], 0);
  visit([0], 'root', 0);
  return rows;
}

const MIN = Number(process.env.MIN ?? 512) * 1024;
const DEPTH = Number(process.env.DEPTH ?? 14);
const files = process.argv.slice(2);
const results = files.map((f) => {
  const t0 = performance.now();
  const g = load(f);
  const t1 = performance.now();
  const { idom, retained } = dominators(g);
  console.error(
    `${f}: loaded in ${((t1 - t0) / 1000).toFixed(1)} s, dominators in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
  );
  // Totals by node type, for strings / typed arrays / code.
  const byType = new Map<string, [number, number]>();
  for (let v = 0; v < g.n; v++) {
    const k = g.nodeTypes[g.nodeType[v]] === 'object' ? `object ${g.names[g.nodeName[v]]}` : g.nodeTypes[g.nodeType[v]];
    const r = byType.get(k) ?? [0, 0];
    r[0] += g.selfSize[v];
    r[1]++;
    byType.set(k, r);
  }
  const t2 = performance.now();
  const rows = walk(g, idom, retained, MIN, DEPTH);
  console.error(`walk in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  return { f, rows, byType, total: retained[0] };
});
const mib = (b: number) => (b / 2 ** 20).toFixed(2);
for (const r of results) {
  console.log(`\n== ${r.f}: ${mib(r.total)} MiB reachable`);
  console.log('-- self size by type (top 25)');
  for (const [k, [s, c]] of [...r.byType.entries()].sort((a, b) => b[1][0] - a[1][0]).slice(0, 25))
    console.log(`${mib(s).padStart(8)} MiB ${String(c).padStart(8)}  ${k}`);
  console.log('-- dominator tree (retained MiB, count, path)');
  for (const row of r.rows)
    console.log(
      `${mib(row.retained).padStart(8)} ${String(row.count).padStart(7)} ${'  '.repeat(row.depth)}${row.path.split(' > ').pop()}`,
    );
}
if (results.length === 2) {
  const [a, b] = results;
  const before = new Map(a.rows.map((r) => [r.path, r.retained]));
  console.log('\n-- growth by path (MiB, b - a), top 40');
  const diffs = b.rows.map((r) => ({ path: r.path, d: r.retained - (before.get(r.path) ?? 0) }));
  for (const d of diffs.sort((x, y) => y.d - x.d).slice(0, 40)) console.log(`${mib(d.d).padStart(8)}  ${d.path}`);
}
