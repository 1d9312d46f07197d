// The wiki pane's typing path, not the search function alone: per keystroke
// the rows the list is built from (src/panes/wiki/rows.ts: every match ranked,
// then the rows), the 20 rows of a 200x60 screen drawn (their snippets read),
// the empty query (browsing every page) after each query, and the process's
// RSS after the typing session. One child process per size, so RSS is that
// size's own.
//
//   node bench/wiki-rows.mjs [--sizes 5000,20000] [--rounds 3] [--json] [--src DIR (another checkout's src/)]
//
// Not a test: numbers depend on the machine. Scratch data goes to .bench-tmp/.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { generateWiki } from './wiki/generate.mjs';
import { REPO } from './wiki/load.mjs';

const args = process.argv.slice(2);
const arg = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? def : args[i + 1];
};
const ROUNDS = Number(arg('rounds', '3'));
const SIZES = String(arg('sizes', '5000,20000')).split(',').map(Number);
const CHILD = arg('child', null);
/** The checkout whose src/ is measured (another worktree or an extracted commit, for a paired comparison). */
const SRC = path.resolve(arg('src', REPO));
const VISIBLE_ROWS = 20;

const TYPED = [
  'checkout flow',
  'payments module',
  'database migrations',
  'flaky test',
  'auth token refresh',
  'react release',
  '認証フロー',
  'zebra crossing',
  'the',
];
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const mb = (b) => Math.round(b / 1024 / 1024);

async function child(n) {
  const tmp = path.join(REPO, '.bench-tmp', `wiki-rows-${n}`);
  const lib = path.join(tmp, 'lib.mjs');
  await build({
    stdin: {
      contents: [
        "export { WikiDomain } from './src/store/wiki/domain.ts';",
        "export { wikiRows } from './src/panes/wiki/rows.ts';",
      ].join('\n'),
      resolveDir: SRC,
      loader: 'ts',
    },
    outfile: lib,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  const { WikiDomain, wikiRows } = await import(pathToFileURL(lib).href);
  const root = path.join(tmp, '.omc');
  generateWiki(path.join(root, 'wiki'), n);
  const domain = new WikiDomain({ root });
  domain.scan();
  const snap = domain.getSnapshot();
  globalThis.gc();
  const rssIndexed = process.memoryUsage().rss;
  const state = (query) => ({ query, category: null, tag: null });
  // What a frame needs of the list: the rows on screen (their snippets) and every row's identity.
  // Up to round two `rows` was an array of every row; since, a lazy list (count, row(i), names).
  const draw = (rows) => {
    if (Array.isArray(rows.rows)) {
      for (const r of rows.rows.slice(0, VISIBLE_ROWS)) void r.snippet;
      void rows.rows.map((r) => r.page.filename);
    } else {
      for (let i = 0; i < Math.min(VISIBLE_ROWS, rows.count); i++) void rows.row(i).snippet;
      void rows.names;
    }
  };
  const keys = [];
  const empties = [];
  let peak = rssIndexed;
  for (let round = 0; round < ROUNDS; round++) {
    for (const typed of TYPED) {
      domain.forgetSearches();
      for (let i = 1; i <= typed.length; i++) {
        const q = typed.slice(0, i);
        if (q.trim() === '') continue;
        const t0 = performance.now();
        draw(wikiRows(domain, snap, state(q)));
        keys.push(performance.now() - t0);
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      // The user clears the query: the list browses every page again.
      const t0 = performance.now();
      draw(wikiRows(domain, snap, state('')));
      empties.push(performance.now() - t0);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  }
  const rssAfter = process.memoryUsage().rss;
  fs.rmSync(tmp, { recursive: true, force: true });
  return {
    pages: snap.searchable.length,
    keystrokes: keys.length,
    keyP50: pct(keys, 50),
    keyP95: pct(keys, 95),
    emptyP50: pct(empties, 50),
    emptyP95: pct(empties, 95),
    rssIndexedMb: mb(rssIndexed),
    rssPeakMb: mb(peak),
    rssAfterMb: mb(rssAfter),
  };
}

if (CHILD !== null) {
  process.stdout.write(JSON.stringify(await child(Number(CHILD))) + '\n');
  process.exit(0);
}

const results = [];
for (const n of SIZES) {
  const r = spawnSync(
    process.execPath,
    [
      // As the app runs (src/terminal/young-gen.ts): a young generation that does not grow.
      '--semi-space-growth-factor=1',
      '--expose-gc',
      path.join(REPO, 'bench', 'wiki-rows.mjs'),
      '--child',
      String(n),
      '--rounds',
      String(ROUNDS),
      '--src',
      SRC,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  if (r.status !== 0) throw new Error(`size ${n}: ${r.stderr}`);
  results.push({ size: n, ...JSON.parse(r.stdout.trim().split('\n').at(-1)) });
}
if (args.includes('--json')) {
  process.stdout.write(JSON.stringify({ node: process.version, rounds: ROUNDS, results }, null, 2) + '\n');
} else {
  const cpu = execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: 'utf8' });
  process.stdout.write(
    [
      `node ${process.version};${cpu.trim()}; ${ROUNDS} rounds`,
      '',
      '| pages | keystrokes | rows per keystroke p50 / p95 | empty query p50 / p95 | RSS indexed | RSS peak | RSS after typing |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.pages} | ${r.keystrokes} | ${ms(r.keyP50)} / ${ms(r.keyP95)} ms | ${ms(r.emptyP50)} / ${ms(r.emptyP95)} ms | ${r.rssIndexedMb} MB | ${r.rssPeakMb} MB | ${r.rssAfterMb} MB |`,
      ),
    ].join('\n') + '\n',
  );
}
