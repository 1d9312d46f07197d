// Start-up in a real pseudo-terminal: first frame, time to live, the start-up change and RSS after start,
// over interleaved starts (one start alone is too noisy on a shared machine).
//   node bench/startup.mjs [--rounds 5] [--sizes 200,2000,2000+5000,10000+5000] [--viewports 80x24,200x60]
//                          [--delay 300] [--bins label=path.mjs,label2=path2.mjs] [--young-gen] [--first-frame-only]
//                          [--settled-rss] [--cwd DIR] [--in-project]
// - first frame: spawn → the bytes that put the header and the first rows (a session id) on screen arrived (found by
//   replaying the output, chunk by chunk, into a fresh terminal; the time this bench's own terminal took to show it,
//   its polling and parsing included, is printed beside it as `firstFrameSeenMs`);
// - live: spawn → the footer ends in a bare `live` (everything read, every watch set);
// - start-up change: a visible session's ralph state rewritten (OMC's temp + rename) `--delay` ms after the
//   first frame (a row of the first frame, else one on screen at that moment); measured from that rename to the
//   new iteration in the terminal output; it is also said whether it arrived before `live`;
// - RSS: /proc/<pid>/status 1 s after live (`--settled-rss`: also 12 s after live, once V8's memory reducer has
//   run: it gives back the start-up read's garbage about 8–10 s after the last burst);
// `--cwd DIR`: the directory omc-top starts in (default: this repository). It is the project the nested-root search
// walks (up to 2,000 directories), so a large one shows what that search costs a start;
// `--in-project`: started as users start it, in the project (each tree's directory, made a git repository), with no
// `--root`: the root found as OMC's hooks place it, which asks git its questions first (io/git-early.ts);
// `--first-frame-only` stops each start at its first frame (many starts for a first-frame p95: no change, no
// wait for live);
// Beside them, interleaved in the same rounds, the floors the issue-30 targets are held against (spawned the same way,
// in a pty, timed from spawn to exit): a bare `node -e 0`, and `bench/baseline/read-tree.mjs` (a fresh Node that
// lists the tree and reads every file once, parsing the JSON). Printed last as table rows: first frame p95 ÷ bare
// node p95 (≤ 3×; only from 20 starts or more, as `--first-frame-only --rounds 20` gives) and time to live ÷
// list-and-parse (p50, ≤ 2×), with the host.
// `--bins` runs several builds alternately on the same trees (before/after pairs); `--young-gen` adds the
// earlier comparison of the shipped young-generation setting against V8's default.
// Why a start was slow: at its first frame each start's main thread is read from /proc/<pid>/schedstat (time on a
// CPU, time runnable but waiting for one), printed per row (`mainThreadCpuMs`, `waitedForCpuMs`) with the slowest
// starts. A slow start whose wait makes up the difference lost the CPU to other processes (the machine), one whose
// CPU did took more work (omc-top); what is left is time off the CPU (I/O, locks, V8's helper threads), `offCpuMs`.
// Read a few ms after the frame (when the bench sees it): the process has gone on running meanwhile. The hypervisor's
// steal (`machineStealMs`) is printed beside them.
// Code caches: each build gets its own `XDG_CACHE_HOME` under the bench's temp dir, warmed by one untimed start
// that runs until that build's full code cache is written (src/io/code-cache.ts). Before this every build shared
// `~/.cache/omc-top`, which keeps 4 caches, so with several builds (or other benches) about, a timed start came up
// cold at random; a user's own start is warm from the second run on, and that is what is timed now.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BIN,
  CLK_TCK,
  REPO,
  generatedTree,
  machine,
  now,
  omcWrite,
  pct,
  procStats,
  sleep,
  startMonitor,
  tree200,
} from './lib.mjs';
import { generateWiki } from './wiki/generate.mjs';
import { spawn as ptySpawn } from '@lydell/node-pty';
import { hostLine, ratioLine } from './targets-lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const ROUNDS = Number(arg('rounds', '5'));
/** Starts a first-frame row needs: the p95 of fewer is the slowest one or two (the time-to-live run's 5 starts). */
const FIRST_FRAME_MIN_STARTS = 20;
const DELAY = Number(arg('delay', '300'));
const START_CWD = path.resolve(String(arg('cwd', REPO)));
const IN_PROJECT = process.argv.includes('--in-project');
/** How a start is told its tree: `--root`, or (`--in-project`) started in the project itself. */
const startIn = (tree) =>
  IN_PROJECT ? { args: [], cwd: path.dirname(tree.root) } : { args: ['--root', tree.root], cwd: START_CWD };
const SIZES = String(arg('sizes', '200,2000,2000+5000,10000+5000')).split(',');
const VIEWPORTS = String(arg('viewports', '80x24,200x60'))
  .split(',')
  .map((v) => v.split('x').map(Number));
const BINS = String(arg('bins', `shipped=${BIN}`))
  .split(',')
  .map((b) => {
    const [label, file] = b.includes('=') ? b.split('=') : [path.basename(b), b];
    return { label, file: path.resolve(file), nodeArgs: [] };
  });
const CACHE_ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-cache-'));
BINS.forEach((b, i) => {
  b.env = { XDG_CACHE_HOME: path.join(CACHE_ROOT, String(i)) };
});
if (process.argv.includes('--young-gen'))
  for (const b of [...BINS])
    BINS.push({
      label: `${b.label}, young generation at V8 default`,
      file: b.file,
      nodeArgs: ['--semi-space-growth-factor=2'],
      env: { XDG_CACHE_HOME: path.join(CACHE_ROOT, `${BINS.indexOf(b)}-default-young`) },
    });

const FIRST_FRAME_ONLY = process.argv.includes('--first-frame-only');
const SETTLED_RSS = process.argv.includes('--settled-rss');

/**
 * CPU time in ms: the machine's busy time (/proc/stat: user, nice, system, irq, softirq, steal) and this bench's own
 * with its ended starts (/proc/self/stat: utime, stime, cutime, cstime; node-pty reaps each start).
 */
function cpuSplit() {
  const m = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const self = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = self
    .slice(self.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  const ms = (ticks) => (ticks * 1000) / CLK_TCK;
  return { at: now(), busy: ms(m[0] + m[1] + m[2] + m[5] + m[6] + m[7]), ours: ms(f[11] + f[12] + f[13] + f[14]) };
}
/** What the other processes on the machine took while this bench ran: a disturbed run says so beside its rows. */
function othersLine(from, to = cpuSplit()) {
  const others = Math.max(0, to.busy - from.busy - (to.ours - from.ours));
  const share = others / ((to.at - from.at) * os.cpus().length);
  return `other processes used ${(share * 100).toFixed(0)} % of the ${os.cpus().length} CPUs meanwhile`;
}

const host = machine();
const cpuAtStart = cpuSplit();
console.log(JSON.stringify({ machine: host }));

/** Spawn → exit of `node args`, through a pty like omc-top's starts. */
function timedNode(args) {
  return new Promise((resolve) => {
    const t = now();
    const p = ptySpawn(process.execPath, args, {
      name: 'xterm-256color',
      cols: 80,
      rows: 24,
      cwd: REPO,
      env: process.env,
    });
    p.onData(() => {});
    p.onExit(() => resolve(now() - t));
  });
}
const bare = [];
const readTree = new Map();
const READ_TREE = path.join(REPO, 'bench', 'baseline', 'read-tree.mjs');

function makeTree(spec) {
  const [n, pages] = spec.split('+').map(Number);
  const t = n === 200 ? tree200() : generatedTree(n);
  if (pages) generateWiki(path.join(t.root, 'wiki'), pages);
  if (IN_PROJECT) execFileSync('git', ['init', '-q', path.dirname(t.root)]);
  const sessions = path.join(t.root, 'state', 'sessions');
  const byPrefix = new Map();
  for (const sid of fs.readdirSync(sessions)) {
    if (fs.existsSync(path.join(sessions, sid, 'ralph-state.json'))) byPrefix.set(sid.slice(0, 8), sid);
  }
  return { ...t, spec, byPrefix, sessions };
}

/** Whether `dir` holds a full code cache (src/io/code-cache.ts: the byte after its 21-byte marker is 1). */
function fullCacheIn(dir) {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.v8cache')) : [];
  return names.some((f) => {
    const fd = fs.openSync(path.join(dir, f), 'r');
    try {
      const head = Buffer.alloc(22);
      fs.readSync(fd, head, 0, 22, 0);
      return head.subarray(0, 21).toString() === 'omc-top code cache 1\n' && head[21] === 1;
    } finally {
      fs.closeSync(fd);
    }
  });
}

/** One untimed start per build, until its full code cache is on disk (a build without one is timed cold). */
async function warm(tree, bin) {
  const m = startMonitor({
    ...startIn(tree),
    cols: 80,
    rows: 24,
    nodeArgs: bin.nodeArgs,
    bin: bin.file,
    env: bin.env,
  });
  const dir = path.join(bin.env.XDG_CACHE_HOME, 'omc-top');
  try {
    await m.waitScreen(/ live\s*$/m, 120_000);
    const deadline = now() + 15_000;
    while (!fullCacheIn(dir) && now() < deadline) await sleep(50);
    console.log(JSON.stringify({ warmed: bin.label, fullCodeCache: fullCacheIn(dir) }));
  } finally {
    m.kill();
  }
  await sleep(300);
}

/** The machine's steal time so far, in ms (/proc/stat: time the hypervisor ran something else on our CPUs). */
function stealMs() {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    return (Number(cpu[8]) * 1000) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** The main thread's time on a CPU and time waiting for one, in ms (null: the process is gone). */
function mainThreadSched(pid) {
  try {
    const [run, wait] = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpu: run / 1e6, waited: wait / 1e6 };
  } catch {
    return null;
  }
}

/** The first frame: the header and a first row (a session id) on screen. */
const FIRST_FRAME = /STATUS\s+SESSION[\s\S]*[0-9a-f]{8}/;
/** The footer ends in a bare `live`: everything read, every watch set. */
const LIVE = / live\s*$/m;

let value = 7000;
async function oneStart(tree, bin, cols, rows) {
  const steal0 = stealMs();
  const m = startMonitor({
    ...startIn(tree),
    cols,
    rows,
    nodeArgs: bin.nodeArgs,
    bin: bin.file,
    env: bin.env,
  });
  try {
    const ffAt = await m.waitScreen(FIRST_FRAME, 60_000);
    const sched = mainThreadSched(m.pid);
    if (sched) sched.steal = stealMs() - steal0;
    if (FIRST_FRAME_ONLY) {
      const ffSeen = ffAt - m.spawnedAt;
      return {
        ff: (await m.arrivedWhen(FIRST_FRAME)) - m.spawnedAt,
        ffSeen,
        sched,
        live: null,
        change: null,
        rssMb: null,
      };
    }
    // A ralph session whose row is on screen when the change is written. (The first frame is a partial read:
    // rows read later sort above its rows, so one of them may have left the screen by then.)
    const target = ffAt + DELAY;
    // A small tree goes live before the change is written: seen here, or its time to live would read ff + DELAY.
    // Looked for every 20 ms only: the bench shares the machine's two cores with the start it times.
    let liveSeen = null;
    let lookedAt = 0;
    while (now() < target) {
      await sleep(Math.min(5, target - now()));
      if (liveSeen === null && now() - lookedAt >= 20) {
        lookedAt = now();
        await m.settle();
        if (LIVE.test(m.screen())) liveSeen = now();
      }
    }
    await m.settle();
    const shown = [...m.screen().matchAll(/\b([0-9a-f]{8})\b/g)].map((x) => x[1]).find((h) => tree.byPrefix.has(h));
    let change = null;
    if (shown) {
      const file = path.join(tree.sessions, tree.byPrefix.get(shown), 'ralph-state.json');
      const mark = m.chunks.length;
      const v = ++value;
      const state = JSON.parse(fs.readFileSync(file, 'utf8'));
      const wrote = now();
      omcWrite(file, { ...state, iteration: v, max_iterations: 99999, last_checked_at: new Date().toISOString() });
      change = { wrote, v, seen: m.waitOutput(`${v}/99999`, mark, 10_000) };
    }
    const liveAt = liveSeen ?? (await m.waitScreen(LIVE, 120_000));
    const seen = change ? await change.seen : null;
    await sleep(1000);
    const { rssMb } = procStats(m.pid);
    let settledRssMb = null;
    if (SETTLED_RSS) {
      await sleep(11_000);
      settledRssMb = procStats(m.pid).rssMb;
    }
    // A change never drawn: its row left the screen while the read went on (rows sorted above it), or it was
    // lost. The `/` filter on its id tells which.
    let changeFate = change ? (seen ? 'drawn' : 'lost') : null;
    if (change && !seen) {
      m.pty.write('/');
      await m.waitScreen(/^\/.*(match|Esc)/m, 10_000);
      m.pty.write(shown);
      try {
        await m.waitScreen(new RegExp(`${shown}.*${change.v}/99999`), 10_000);
        changeFate = 'left the screen';
      } catch {
        /* lost */
      }
    }
    return {
      settledRssMb,
      ff: (await m.arrivedWhen(FIRST_FRAME)) - m.spawnedAt,
      ffSeen: ffAt - m.spawnedAt,
      sched,
      live: liveAt - m.spawnedAt,
      change: seen ? seen.t - change.wrote : null,
      changeBeforeLive: seen ? seen.t < liveAt : null,
      changeFromFf: change ? change.wrote - ffAt : null,
      changeFate,
      rssMb,
    };
  } finally {
    m.kill();
  }
}

const res = new Map();
const trees = SIZES.map(makeTree);
try {
  for (const bin of BINS) await warm(trees[0], bin);
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await timedNode(['-e', '0']));
    for (const tree of trees) {
      if (!FIRST_FRAME_ONLY) {
        if (!readTree.has(tree.spec)) readTree.set(tree.spec, []);
        readTree.get(tree.spec).push(await timedNode([READ_TREE, tree.root]));
      }
      for (const [cols, rows] of VIEWPORTS) {
        const bins = round % 2 ? [...BINS].reverse() : BINS;
        for (const bin of bins) {
          const k = `${tree.spec} ${cols}x${rows} ${bin.label}`;
          if (!res.has(k)) res.set(k, { tree: tree.spec, viewport: `${cols}x${rows}`, bin: bin.label, runs: [] });
          try {
            res.get(k).runs.push(await oneStart(tree, bin, cols, rows));
          } catch (e) {
            res.get(k).runs.push({ error: String(e?.message ?? e).slice(0, 300) });
          }
          await sleep(300);
        }
      }
    }
  }
} finally {
  for (const t of trees) t.cleanup();
  fs.rmSync(CACHE_ROOT, { recursive: true, force: true });
}
const targetRows = [];
const q = (xs, ps = [50, 95]) =>
  Object.fromEntries(ps.map((p) => [`p${p}`, xs.length ? Math.round(pct(xs, p) * 10) / 10 : null]));
for (const r of res.values()) {
  const ok = r.runs.filter((x) => !x.error);
  const changes = ok.filter((x) => x.change !== null);
  if (FIRST_FRAME_ONLY) {
    const ff = ok.map((x) => x.ff);
    console.log(
      JSON.stringify({
        tree: r.tree,
        viewport: r.viewport,
        bin: r.bin,
        starts: ok.length,
        errors: r.runs.length - ok.length,
        firstFrameMs: { ...q(ff, [25, 50, 75, 95]), max: Math.round(Math.max(...ff)) },
        firstFrameSeenMs: q(ok.map((x) => x.ffSeen)),
        ...schedSummary(ok),
      }),
    );
    firstFrameRow(
      r,
      ff,
      ok.map((x) => x.ffSeen),
    );
    continue;
  }
  console.log(
    JSON.stringify({
      tree: r.tree,
      viewport: r.viewport,
      bin: r.bin,
      starts: ok.length,
      errors: r.runs.length - ok.length,
      firstFrameMs: q(ok.map((x) => x.ff)),
      firstFrameSeenMs: q(ok.map((x) => x.ffSeen)),
      ...schedSummary(ok),
      liveMs: { ...q(ok.map((x) => x.live)), max: Math.round(Math.max(...ok.map((x) => x.live))) },
      startupChangeMs: {
        ...q(changes.map((x) => x.change)),
        max: Math.round(Math.max(...changes.map((x) => x.change))),
      },
      changesBeforeLive: `${changes.filter((x) => x.changeBeforeLive).length}/${changes.length}`,
      // Changes not drawn: their row had left the screen (the `/` filter found the new value), or lost.
      changesLeftScreen: ok.filter((x) => x.changeFate === 'left the screen').length,
      changesLost: ok.filter((x) => x.changeFate === 'lost').length,
      rssMb: {
        ...q(
          ok.map((x) => x.rssMb),
          [50],
        ),
        max: Math.round(Math.max(...ok.map((x) => x.rssMb))),
      },
      ...(SETTLED_RSS
        ? {
            settledRssMb: {
              ...q(
                ok.map((x) => x.settledRssMb),
                [50],
              ),
              max: Math.round(Math.max(...ok.map((x) => x.settledRssMb))),
            },
          }
        : {}),
    }),
  );
}

/** Where the starts' time went (see the header): their main thread's CPU and wait, and the three slowest starts. */
function schedSummary(ok) {
  const timed = ok.filter((x) => x.sched);
  if (!timed.length) return {};
  const stat = (xs) => ({ ...q(xs), max: Math.round(Math.max(...xs)) });
  const round = (v) => Math.round(v);
  return {
    mainThreadCpuMs: stat(timed.map((x) => x.sched.cpu)),
    waitedForCpuMs: stat(timed.map((x) => x.sched.waited)),
    // Both CPUs' steal between spawn and first frame, summed over the row's starts: time the hypervisor gave our
    // CPUs to another guest (the machine's, whichever column above the kernel booked it in).
    machineStealMs: round(timed.reduce((a, x) => a + x.sched.steal, 0)),
    slowest: [...timed]
      .sort((a, b) => b.ff - a.ff)
      .slice(0, 3)
      .map((x) => ({
        ff: round(x.ff),
        cpuMs: round(x.sched.cpu),
        waitedMs: round(x.sched.waited),
        offCpuMs: round(x.ff - x.sched.cpu - x.sched.waited),
        machineStealMs: round(x.sched.steal),
      })),
  };
}

/** `ff`: spawn → the frame's bytes arrived; `seen`: spawn → this bench's terminal showed it (its polling and parsing too). */
function firstFrameRow(r, ff, seen) {
  if (!ff.length || !bare.length) return;
  // Not a reading of the target: the JSON line above has the figures; `--first-frame-only --rounds 20` is the row.
  if (ff.length < FIRST_FRAME_MIN_STARTS) return;
  targetRows.push(
    ratioLine({
      target: `first frame p95 ÷ a bare \`node -e 0\` p95, ${r.tree} sessions, ${r.viewport}${BINS.length > 1 ? ` [${r.bin}]` : ''}`,
      value: pct(ff, 95) / pct(bare, 95),
      limit: 3,
      figures: `${pct(ff, 95).toFixed(0)} / ${pct(bare, 95).toFixed(0)} ms (p50 ${pct(ff, 50).toFixed(0)} / ${pct(bare, 50).toFixed(0)}), ${ff.length} starts; as the bench's terminal showed it ${pct(seen, 95).toFixed(0)} (p50 ${pct(seen, 50).toFixed(0)})`,
    }),
  );
}
for (const r of res.values()) {
  const ok = r.runs.filter((x) => !x.error && x.live !== null);
  if (!FIRST_FRAME_ONLY)
    firstFrameRow(
      r,
      ok.map((x) => x.ff),
      ok.map((x) => x.ffSeen),
    );
  const floor = readTree.get(r.tree) ?? [];
  if (!ok.length || !floor.length || !r.tree.includes('+')) continue;
  const live = ok.map((x) => x.live);
  targetRows.push(
    ratioLine({
      target: `time to live ÷ listing and parsing the tree once, ${r.tree} sessions+pages, ${r.viewport}${BINS.length > 1 ? ` [${r.bin}]` : ''}`,
      value: pct(live, 50) / pct(floor, 50),
      limit: 2,
      figures: `${pct(live, 50).toFixed(0)} / ${pct(floor, 50).toFixed(0)} ms (p50 of ${live.length} / ${floor.length} starts)`,
    }),
  );
}
for (const l of targetRows) console.log(l);
console.log(`${hostLine(host)}; ${othersLine(cpuAtStart)}`);
process.exit(0);
