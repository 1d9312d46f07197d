// What a start allocates until it is live, by who allocated it: the garbage the scavenger copies is what the
// CPU profile shows as "(garbage collector)" (14–22 % of time to live at 2,000 sessions + 5,000 pages), and a CPU
// profile does not say whose it is. V8's sampling heap profiler, told to keep the samples of objects that were
// collected too, does.
//   node bench/alloc-to-live.mjs [--size 2000+5000] [--bin path/to/omc-top.mjs] [--interval 16384] [--top 30]
// - builds an unminified copy of the bundles (names and `// src/…` markers kept) unless `--bin` is given
//   (an unminified build: names are what it reports by);
// - starts it in a pty with a preload that starts sampling before anything else runs, waits for the bare `live`
//   footer, asks the process (SIGUSR2) to write the profile, then prints the allocated bytes (sampled) by source
//   file, by function and inclusive of callees.
// Sampled bytes: each sample stands for ~`--interval` bytes, so totals vary ~1–2 % between runs of one build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_OUT, BIN_OUT, STATUS_OUT, bundle, hookOutfile } from '../scripts/build.mjs';
import { REPO, generatedTree, sleep, startMonitor } from './lib.mjs';
import { generateWiki } from './wiki/generate.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const [N, PAGES] = String(arg('size', '2000+5000')).split('+').map(Number);
const INTERVAL = Number(arg('interval', '16384'));
const TOP = Number(arg('top', '30'));

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-alloc-'));
let bin = arg('bin', null);
if (!bin) {
  const out = path.join(REPO, '.bench-tmp', 'unminified-dist');
  const src = (p) => path.join(REPO, 'src', p);
  await bundle(src('cli.tsx'), path.join(out, path.basename(APP_OUT)), { minify: false, app: true });
  await bundle(src('commands/status-main.ts'), path.join(out, path.basename(STATUS_OUT)), { minify: false });
  await bundle(src('commands/hook-main.ts'), path.join(out, path.basename(hookOutfile)), { minify: false });
  await bundle(src('entry.ts'), path.join(out, path.basename(BIN_OUT)), { minify: false });
  bin = path.join(out, path.basename(BIN_OUT));
}
const app = path.join(path.dirname(bin), path.basename(APP_OUT));

// The preload: CPU profiling from the first line on; the profile is written on SIGUSR2.
const preload = path.join(work, 'sampler.mjs');
const profileFile = path.join(work, 'cpu.json');
fs.writeFileSync(
  preload,
  `import inspector from 'node:inspector';
import fs from 'node:fs';
const s = new inspector.Session();
s.connect();
s.post('Profiler.enable');
s.post('Profiler.setSamplingInterval', { interval: 200 });
s.post('Profiler.start');
let done = false;
const dump = () => {
  if (done) return;
  done = true;
  s.post('Profiler.stop', (err, r) => fs.writeFileSync(${JSON.stringify(profileFile)}, JSON.stringify(err ? { error: String(err.message) } : r.profile)));
};
process.on('SIGUSR2', dump);
`,
);

const tree = generatedTree(N);
if (PAGES) generateWiki(path.join(tree.root, 'wiki'), PAGES);
const m = startMonitor({
  args: ['--root', tree.root],
  cols: 80,
  rows: 24,
  bin,
  nodeArgs: ['--import', preload],
  env: { XDG_CACHE_HOME: path.join(work, 'xdg') },
});
let prof;
try {
  const t0 = performance.now();
  await m.waitScreen(/ live\s*$/m, 180_000);
  const liveMs = performance.now() - t0;
  process.kill(m.pid, 'SIGUSR2');
  const deadline = Date.now() + 20_000;
  while (!fs.existsSync(profileFile) && Date.now() < deadline) await sleep(100);
  await sleep(300);
  prof = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
  if (prof.error) throw new Error(prof.error);
  console.log(JSON.stringify({ size: `${N}+${PAGES || 0}`, liveMs: Math.round(liveMs), bin }));
} finally {
  m.kill();
  tree.cleanup();
}

// `// src/…` markers of the unminified bundle: which source file a line of it came from.
const marks = [];
fs.readFileSync(app, 'utf8')
  .split('\n')
  .forEach((l, i) => {
    const hit = /^\/\/ ((?:src|node_modules)\/\S+)/.exec(l);
    if (hit) marks.push([i + 1, hit[1]]);
  });
const fileOf = (line) => {
  let lo = 0;
  let hi = marks.length - 1;
  let found = '?';
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (marks[mid][0] <= line) {
      found = marks[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
};
// The app bundle is compiled by the bin (src/io/code-cache.ts): its frames carry its path or its file: URL.
const ours = (f) => f.url !== '' && f.url.endsWith(`/${path.basename(app)}`);
const placeOf = (f) => (ours(f) ? fileOf(f.lineNumber + 1) : f.url ? path.basename(f.url) : '(native)');
const fnOf = (f) => `${f.functionName || '(anonymous)'} ${placeOf(f)}:${f.lineNumber + 1}`;

const byFile = new Map();
const byFn = new Map();
const incl = new Map();
const add = (map, k, v) => map.set(k, (map.get(k) ?? 0) + v);
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const selfUs = new Map();
const times = prof.timeDeltas;
let total = 0;
const buckets = new Map();
let tAbs = 0;
prof.samples.forEach((id, i) => {
  const dt = times[i + 1] ?? 0;
  tAbs += times[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  const b = Math.floor(tAbs / 50000);
  if (!buckets.has(b)) buckets.set(b, new Map());
  const n = byId.get(id);
  add(buckets.get(b), placeOf(n.callFrame).replace(/^node_modules\/([^/]+).*/, 'nm/$1'), dt);
});
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  total += us;
  const f = n.callFrame;
  add(byFn, fnOf(f), us);
  const file = placeOf(f);
  add(byFile, file.startsWith('node_modules/') ? file.split('/').slice(0, 2).join('/') : file, us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = fnOf(byId.get(cur).callFrame);
    if (!seen.has(k)) { seen.add(k); add(incl, k, us); }
  }
}
const list = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, v]) => `${(v / 1e3).toFixed(1).padStart(7)} ms ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
    .join('\n');
console.log(`profiled: ${(total / 1e3).toFixed(1)} ms`);
console.log('\ntimeline (50 ms buckets, top 4 files)');
for (const [b, m] of [...buckets].sort((x, y) => x[0] - y[0]))
  console.log(`${String(b * 50).padStart(5)}: ` + [...m].sort((x, y) => y[1] - x[1]).slice(0, 5).map(([k, v]) => `${k} ${(v / 1e3).toFixed(0)}`).join(' | '));
console.log(`\nby source file\n${list(byFile)}`);
console.log(`\nby function (self)\n${list(byFn)}`);
console.log(`\ninclusive of callees\n${list(incl)}`);
fs.rmSync(work, { recursive: true, force: true });
