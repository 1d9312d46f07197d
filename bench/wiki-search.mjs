// Wiki search benchmark: per-keystroke search latency of omc-top's index on
// 1,000 and 5,000 generated pages and on the 1,000 real OMC-written pages of
// the large fixture, the index build time, and the same keystrokes through
// OMC's own approach (its compiled queryWiki reads and parses every page on
// every query, and appends to log.md) as the baseline.
//
//   node bench/wiki-search.mjs [--rounds N] [--sizes 1000,5000] [--json]
//
// Not a test: numbers depend on the machine. Scratch data goes to .bench-tmp/.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { generateWiki } from './wiki/generate.mjs';
import { REPO, loadOmcQuery, loadOmcTopWiki } from './wiki/load.mjs';

// Heap measurements need an explicit GC: re-run under --expose-gc.
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const args = process.argv.slice(2);
const arg = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? def : args[i + 1];
};
const ROUNDS = Number(arg('rounds', '5'));
/** OMC's shipped queryWiki costs seconds per call on big wikis: it replays only this many keystrokes. */
const OMC_KEYSTROKES = Number(arg('omc-keystrokes', '6'));
const SIZES = String(arg('sizes', '1000,5000')).split(',').map(Number);
const JSON_OUT = args.includes('--json');

/** What a user types, one keystroke at a time (each prefix is one search). */
const TYPED = [
  'checkout flow',
  'payments module',
  'database migrations',
  'flaky test',
  'auth token refresh',
  'react release',
  '認証フロー',
  '인증 토큰',
  'zebra crossing',
  'the',
];
const keystrokes = TYPED.flatMap((q) =>
  Array.from({ length: q.length }, (_, i) => q.slice(0, i + 1)).filter((s) => s.trim() !== ''),
);
/** The re-read baseline replays the first three queries' keystrokes. */
const BASELINE_KEYSTROKES = TYPED.slice(0, 3).flatMap((q) =>
  Array.from({ length: q.length }, (_, i) => q.slice(0, i + 1)).filter((s) => s.trim() !== ''),
);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

function scratchProject(name) {
  const dir = path.join(REPO, '.bench-tmp', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, '.omc', 'wiki'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

/**
 * OMC's approach without OMC's incidental costs: list the dir, read and parse
 * every page (plain readFileSync, no index structures), then rank the same way.
 */
function rereadSearch(root, q, { parseWikiPage, searchWiki }) {
  const pages = [];
  const now = new Date().toISOString();
  for (const f of fs.readdirSync(path.join(root, 'wiki')).sort()) {
    if (!f.endsWith('.md') || f === 'index.md' || f === 'log.md' || f === 'environment.md') continue;
    const parsed = parseWikiPage(fs.readFileSync(path.join(root, 'wiki', f), 'utf8'), now);
    if (!parsed) continue;
    const { frontmatter, content } = parsed;
    const tagsLower = frontmatter.tags.map((t) => t.toLowerCase());
    // The fields searchWiki reads of a WikiPage (src/store/wiki/page.ts), built plainly.
    pages.push({
      filename: f,
      searchable: true,
      frontmatter,
      content,
      bodyLength: content.length,
      bodySlice: (start, end) => content.slice(start, end),
      titleLower: frontmatter.title.toLowerCase(),
      tagsLower,
      tagsJoined: tagsLower.join('\n'),
      contentLower: content.toLowerCase(),
    });
  }
  return searchWiki(pages, q, { limit: 20 });
}

async function runCase(label, projectDir, lib, { queryWiki }) {
  const { WikiDomain } = lib;
  const root = path.join(projectDir, '.omc');
  const files = fs
    .readdirSync(path.join(root, 'wiki'))
    .filter((f) => f.endsWith('.md') && !['index.md', 'log.md', 'environment.md'].includes(f));
  const bytes = files.reduce((n, f) => n + fs.statSync(path.join(root, 'wiki', f)).size, 0);

  // Index build: a fresh domain reading and indexing every page (what omc-top does once at start).
  const builds = [];
  let domain = null;
  let heapMb = 0;
  for (let i = 0; i < 3; i++) {
    domain = null;
    globalThis.gc();
    const heap0 = process.memoryUsage().heapUsed;
    const d = new WikiDomain({ root });
    const t0 = performance.now();
    d.scan();
    builds.push(performance.now() - t0);
    globalThis.gc();
    heapMb = (process.memoryUsage().heapUsed - heap0) / 1024 / 1024;
    domain = d;
  }
  const pages = domain.getSnapshot().searchable.length;

  // One incremental update: a page changes, one file is re-read.
  const changed = files[Math.floor(files.length / 2)];
  const changedPath = path.join(root, 'wiki', changed);
  fs.appendFileSync(changedPath, '\nappended line for the update benchmark\n');
  const u0 = performance.now();
  domain.refresh([{ type: 'change', rel: `wiki/${changed}` }], 'trailing');
  const update = performance.now() - u0;

  // Per keystroke, as the pane does it: every match ranked (the visible rows' snippets are built on
  // demand; the first 10 are read here). Each typed query starts from scratch: nothing remembered.
  const typeAll = (limit, out) => {
    for (const typed of TYPED) {
      domain.forgetSearches();
      for (let i = 1; i <= typed.length; i++) {
        const q = typed.slice(0, i);
        if (q.trim() === '') continue;
        const t0 = performance.now();
        const res = domain.search(q, { limit });
        for (const h of res.hits.slice(0, 10)) void h.snippet;
        out?.push(performance.now() - t0);
      }
    }
  };
  typeAll(Infinity, null); // warm up the JIT
  const all = [];
  const top20 = [];
  for (let r = 0; r < ROUNDS; r++) {
    typeAll(Infinity, all);
    typeAll(20, top20);
  }

  // Baseline 1: OMC's approach (read and parse every page on every query), without OMC's extra costs.
  const reread = [];
  for (const q of BASELINE_KEYSTROKES) {
    const t0 = performance.now();
    rereadSearch(root, q, lib);
    reread.push(performance.now() - t0);
  }
  // Baseline 2: OMC's shipped queryWiki (as above, plus its per-call root resolution and a log.md append).
  const omc = [];
  for (const q of BASELINE_KEYSTROKES.slice(0, OMC_KEYSTROKES)) {
    const t0 = performance.now();
    queryWiki(projectDir, q, { limit: 20 });
    omc.push(performance.now() - t0);
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    label,
    pages,
    mb: bytes / 1024 / 1024,
    buildMs: pct(builds, 50),
    heapMb,
    updateMs: update,
    p50: pct(all, 50),
    p95: pct(all, 95),
    max: Math.max(...all),
    top20p50: pct(top20, 50),
    top20p95: pct(top20, 95),
    keystrokes: all.length,
    rereadP50: pct(reread, 50),
    rereadP95: pct(reread, 95),
    rereadRatio: mean(reread) / mean(all),
    omcP50: pct(omc, 50),
    omcP95: pct(omc, 95),
    omcRatio: mean(omc) / mean(all),
  };
}

const omcTop = await loadOmcTopWiki();
const omc = await loadOmcQuery();
const results = [];
for (const n of SIZES) {
  const dir = scratchProject(`wiki-${n}`);
  generateWiki(path.join(dir, '.omc', 'wiki'), n);
  results.push(await runCase(`${n} generated`, dir, omcTop, omc));
}
{
  const dir = scratchProject('wiki-large-real');
  fs.rmSync(path.join(dir, '.omc'), { recursive: true, force: true });
  execFileSync('tar', [
    '-xzf',
    path.join(REPO, 'test', 'fixtures', 'real-omc', 'large-tree.tar.gz'),
    '-C',
    dir,
    '.omc/wiki',
  ]);
  results.push(await runCase('1000 real (large-tree)', dir, omcTop, omc));
}
fs.rmSync(path.join(REPO, '.bench-tmp'), { recursive: true, force: true });

if (JSON_OUT) {
  process.stdout.write(JSON.stringify({ node: process.version, rounds: ROUNDS, results }, null, 2) + '\n');
} else {
  const lines = [
    `node ${process.version}; omc-top: ${ROUNDS} rounds × ${keystrokes.length} keystrokes (${TYPED.length} queries typed from scratch);`,
    `re-read baseline: ${BASELINE_KEYSTROKES.length} keystrokes; OMC queryWiki: ${Math.min(OMC_KEYSTROKES, BASELINE_KEYSTROKES.length)} keystrokes`,
    '',
    '| wiki | pages | MB on disk | index heap | index build | 1-page update | keystroke p50 | keystroke p95 | max | top-20 p95 | re-read every page p50 / p95 | OMC queryWiki p50 / p95 | ratio (mean) re-read · OMC |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.pages} | ${r.mb.toFixed(1)} | ${Math.round(r.heapMb)} MB | ${ms(r.buildMs)} ms | ${ms(r.updateMs)} ms | ${ms(r.p50)} ms | **${ms(r.p95)} ms** | ${ms(r.max)} ms | ${ms(r.top20p95)} ms | ${ms(r.rereadP50)} / ${ms(r.rereadP95)} ms | ${ms(r.omcP50)} / ${ms(r.omcP95)} ms | ${Math.round(r.rereadRatio)}× · ${Math.round(r.omcRatio)}× |`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
