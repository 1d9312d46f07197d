// Where a cost grows with N: CPU profiles of the same window at two sizes in one run, side by side.
// Builds an unminified bundle (names kept), starts it under `node --cpu-prof` at each size, waits until live,
// then profiles one window of a scenario and prints, per size, the CPU per event and the functions whose
// share grew the most between the smallest and the largest size (self time, and inclusive time for ours).
//   node bench/profile.mjs [--sizes 200,10000] [--scenario changes|idle] [--seconds 10] [--rate 20] [--top 25]
//                          [--keep DIR] [--claude none,registry,transcripts] [--mb 10]
// - `--claude a,b`: instead of two sizes, the 200-session real OMC tree without Claude data (none), with a live
//   registry entry per session (registry: a sleeping process each), or with a `--mb` MB transcript as well
//   (transcripts); the first against the last.
// - changes: `--rate` writes per second over visible sessions (OMC's temp + rename), for `--seconds`;
// - idle: nothing written for `--seconds`.
// Samples outside the window (start-up, exit) are dropped: the window's bounds are taken on the same monotonic
// clock V8's profiler stamps its samples with.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundle } from '../scripts/build.mjs';
import { REPO, generatedTree, machine, omcWrite, procStats, sleep, startMonitor, tree200 } from './lib.mjs';
import { claudeData } from './claude/data.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const SIZES = String(arg('sizes', '200,10000')).split(',').map(Number);
const SCENARIO = arg('scenario', 'changes');
const SECONDS = Number(arg('seconds', '10'));
const RATE = Number(arg('rate', '20'));
const TOP = Number(arg('top', '25'));
const KEEP = arg('keep', null);

const bin = path.join(REPO, '.bench-tmp', 'unminified', 'omc-top.mjs');
await bundle(path.join(REPO, 'src', 'cli.tsx'), bin, { minify: false });
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

const CLAUDE = arg('claude', null)?.split(',') ?? null;
const MB = Number(arg('mb', '10'));

async function profileOne(n, claude = null) {
  const tree = claude ? tree200() : generatedTree(n); // the same shape at every size: only N differs
  const cfg = claude ? claudeData(tree, claude, MB) : null;
  const dir = KEEP ? path.resolve(KEEP, String(claude ?? n)) : fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-prof-'));
  fs.mkdirSync(dir, { recursive: true });
  const m = startMonitor({
    args: ['--root', tree.root],
    cols: 80,
    rows: 24,
    bin,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '250'],
    env: cfg ? { CLAUDE_CONFIG_DIR: cfg.dir } : {},
  });
  try {
    await m.waitScreen(/ live\s*$/m, 180_000);
    await sleep(claude ? 20_000 : 3000); // Claude data: every transcript read first
    await m.settle();
    const ids = [...new Set([...m.screen().matchAll(/\b([0-9a-f]{8})\b/g)].map((x) => x[1]))];
    const sessions = path.join(tree.root, 'state', 'sessions');
    const dirs = fs.readdirSync(sessions);
    const targets = ids
      .map((h) => dirs.find((d) => d.startsWith(h)))
      .filter((d) => d && fs.existsSync(path.join(sessions, d, 'ralph-state.json')));
    const c0 = procStats(m.pid);
    const t0 = monoUs();
    let events = 0;
    if (SCENARIO === 'changes') {
      const start = performance.now();
      for (let i = 0; i < SECONDS * RATE; i++) {
        const file = path.join(sessions, targets[i % targets.length], 'ralph-state.json');
        const s = JSON.parse(fs.readFileSync(file, 'utf8'));
        omcWrite(file, { ...s, active: true, iteration: 500000 + i, last_checked_at: new Date().toISOString() });
        events += 1;
        const due = start + ((i + 1) * 1000) / RATE;
        while (performance.now() < due) await sleep(Math.max(1, due - performance.now()));
      }
      await sleep(300);
    } else await sleep(SECONDS * 1000);
    const t1 = monoUs();
    const c1 = procStats(m.pid);
    m.pty.kill('SIGTERM');
    const deadline = Date.now() + 20_000;
    let file = null;
    while (!file && Date.now() < deadline) {
      await sleep(200);
      file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      if (file) await sleep(500); // written in one go at exit; give it a moment to finish
    }
    if (!file) throw new Error(`no profile written at ${n}`);
    const prof = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    return {
      n: claude ?? n,
      events,
      windowMs: (t1 - t0) / 1000,
      cpuMs: c1.cpuMs - c0.cpuMs,
      ...summarise(prof, t0, t1),
    };
  } finally {
    m.kill();
    cfg?.cleanup();
    tree.cleanup();
    if (!KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Self and inclusive time per function (name + place) inside [t0, t1] (µs on the profiler's clock). */
function summarise(prof, t0, t1) {
  const byId = new Map(prof.nodes.map((nd) => [nd.id, nd]));
  const parent = new Map();
  for (const nd of prof.nodes) for (const c of nd.children ?? []) parent.set(c, nd.id);
  const keyOf = (nd) => {
    const f = nd.callFrame;
    const file = f.url ? path.basename(f.url) : '';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map();
  const incl = new Map();
  let t = prof.startTime;
  let sampled = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i];
    if (t < t0 || t > t1) continue;
    const dt = prof.timeDeltas[i + 1] ?? 0;
    if (dt <= 0) continue;
    sampled += dt;
    let nd = byId.get(prof.samples[i]);
    self.set(keyOf(nd), (self.get(keyOf(nd)) ?? 0) + dt);
    const seen = new Set();
    while (nd) {
      const k = keyOf(nd);
      if (!seen.has(k)) {
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + dt);
      }
      nd = byId.get(parent.get(nd.id));
    }
  }
  return { self, incl, sampledMs: sampled / 1000 };
}

console.log(JSON.stringify({ machine: machine(), scenario: SCENARIO, seconds: SECONDS, rate: RATE }));
const runs = [];
if (CLAUDE) for (const c of CLAUDE) runs.push(await profileOne(200, c));
else for (const n of SIZES) runs.push(await profileOne(n));
const per = (r) => Math.max(1, r.events); // idle: per window
for (const r of runs) {
  console.log(
    JSON.stringify({
      sessions: r.n,
      events: r.events,
      windowMs: Math.round(r.windowMs),
      cpuMs: Math.round(r.cpuMs),
      cpuMsPerEvent: +(r.cpuMs / per(r)).toFixed(2),
      sampledMs: Math.round(r.sampledMs),
    }),
  );
}
const [a, b] = [runs[0], runs[runs.length - 1]];
const ours = (k) => !/node:|\(program\)|\(garbage|\(idle\)|\(root\)/.test(k);
for (const kind of ['self', 'incl']) {
  const keys = new Set([...a[kind].keys(), ...b[kind].keys()]);
  const rows = [...keys]
    .filter((k) => kind === 'self' || ours(k))
    .map((k) => ({
      k,
      a: (a[kind].get(k) ?? 0) / 1000 / per(a),
      b: (b[kind].get(k) ?? 0) / 1000 / per(b),
    }))
    .map((r) => ({ ...r, grow: r.b - r.a }))
    .sort((x, y) => y.grow - x.grow)
    .slice(0, TOP);
  console.log(`\n${kind} ms per ${SCENARIO === 'idle' ? 'window' : 'event'}: ${a.n} → ${b.n} (growth first)`);
  for (const r of rows) console.log(`${r.a.toFixed(3).padStart(8)} ${r.b.toFixed(3).padStart(8)}  ${r.k}`);
}
process.exit(0);
