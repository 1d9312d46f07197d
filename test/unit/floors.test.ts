/**
 * The structure stays true: every import under src/ points down the floors of
 * docs/ARCHITECTURE.md's map (a folder imports only from lower floors, or
 * within itself), every top-level entry of src/ has its line in the map, and no
 * import circle exists between files or between folders. Type-only imports
 * count too: a circle through types is still a circle for a reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(REPO, 'src');

/** `floor  src/<entry>[/]  job`, one line per top-level entry, inside the map's code block. */
function floorsOf(architecture: string): Map<string, number> {
  const block = /```text\n([\s\S]*?)```/.exec(architecture)?.[1] ?? '';
  const floors = new Map<string, number>();
  for (const m of block.matchAll(/^(\d+)\s+src\/([\w.-]+)\/?\s/gm)) floors.set(m[2] as string, Number(m[1]));
  return floors;
}

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\1/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|tsx|mts)$/.test(e.name)) out.push(p);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base,
    `${base}.ts`,
    `${base}/index.ts`,
  ];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

/** Every file's resolved relative imports (paths relative to src/). */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of sourceFiles(root)) {
    const text = fs.readFileSync(f, 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT_RE)) {
      const t = resolveImport(f, m[2] as string);
      if (t) targets.push(path.relative(root, t));
    }
    graph.set(path.relative(root, f), targets);
  }
  return graph;
}

/** The circles of a graph (strongly connected parts of more than one node, or a node that imports itself). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const topOf = (rel: string) => rel.split('/')[0] as string;

/** The top-level folder graph: an edge from a file's top-level entry to each one it imports from (itself left out). */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const g = new Map<string, Set<string>>();
  for (const [f, targets] of files) {
    const from = topOf(f);
    const set = g.get(from) ?? new Set<string>();
    for (const t of targets) if (topOf(t) !== from) set.add(topOf(t));
    g.set(from, set);
  }
  return new Map([...g].map(([k, v]) => [k, [...v]]));
}

describe('the floors of src/', () => {
  const floors = floorsOf(fs.readFileSync(path.join(REPO, 'docs/ARCHITECTURE.md'), 'utf8'));
  const graph = importGraph(SRC);

  it('docs/ARCHITECTURE.md gives every top-level entry of src/ its floor', () => {
    const entries = fs.readdirSync(SRC).filter((e) => !e.startsWith('.'));
    expect(entries.filter((e) => !floors.has(e))).toEqual([]);
    expect([...floors.keys()].filter((e) => !entries.includes(e))).toEqual([]);
  });

  it('every import between top-level folders points to a lower floor', () => {
    const upward: string[] = [];
    for (const [f, targets] of graph) {
      for (const t of targets) {
        const a = topOf(f);
        const b = topOf(t);
        if (a === b) continue;
        if (!((floors.get(b) ?? Infinity) < (floors.get(a) ?? -Infinity))) upward.push(`${f} -> ${t}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('no file imports itself back through others', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('no top-level folder imports itself back through others', () => {
    expect(circles(folderGraph(graph))).toEqual([]);
  });

  it('finds an upward import and a circle when there is one', () => {
    const g = new Map([
      ['store/a.ts', ['io/b.ts']],
      ['io/b.ts', ['store/a.ts']],
    ]);
    expect(circles(g)).toEqual([['io/b.ts', 'store/a.ts']]);
    expect(circles(folderGraph(g))).toEqual([['io', 'store']]);
  });
});
