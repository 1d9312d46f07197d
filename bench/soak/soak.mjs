// The soak: "one hour compressed into a few minutes". The real bundle runs in
// a pty on the 200-session real-OMC tree while bench/soak/driver.mjs makes 20
// changes per second (state rewrites, session directories coming and going,
// notepad appends, wiki edits, team heartbeats). We sample it from outside
// (/proc: RSS, open descriptors, inotify watches, CPU) and from inside
// (bench/soak/probe.mjs: post-GC heap and RSS, listeners on every live
// EventEmitter, active timers and watchers), then judge:
//   - memory is flat: after a warm-up, the (median-slope) growth of RSS (from
//     outside, and right after a GC) and the rise of the post-GC heap's floor
//     over the rest of the run stay under a few MB, and no post-GC sample is
//     far above the RSS trend;
//   - nothing leaks: once the driver stops and its extra sessions are gone
//     (the tree is back to its starting size), listeners, emitters, process
//     listeners, timers, watchers, descriptors and inotify watches are back to
//     what they were before the storm.
//
// A benchmark, not a test (its RSS judgement depends on machine load; test/faults/leak.e2e.test.ts
// is the deterministic leak test). Run:
//   node scripts/build.mjs && node bench/soak/soak.mjs [--seconds 3600] [--rate 20]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machine, omcWrite, procStats, sleep, startMonitor, tree200 } from '../lib.mjs';
import { startDriver } from './driver.mjs';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'probe.mjs');

/** Thresholds: what "flat" and "no leak" mean here. */
export const LIMITS = {
  warmupFraction: 0.3,
  /** Growth across the post-warm-up window (Theil–Sen slope × window). */
  rssGrowthMb: 8,
  /** Rise of the post-GC heap's floor across the post-warm-up window. */
  heapGrowthMb: 4,
  /** Largest sample above the post-warm-up trend line (GC and allocator noise). */
  rssAboveTrendMb: 15,
};

/**
 * Growth over the window by the Theil–Sen estimator (the median of the slopes
 * between every pair of samples). RSS swings by ±10 MB between GCs and
 * allocator decisions; a least-squares line through a short noisy run tilts
 * with where a few swings happen to fall, the median slope does not, while a
 * real leak (every later sample higher) still shows in full.
 */
export function fit(points) {
  const n = points.length;
  if (n < 2) return { slopePerMin: 0, growth: 0, at: () => points[0]?.y ?? 0 };
  const slopes = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = points[j].x - points[i].x;
      if (dx > 0) slopes.push((points[j].y - points[i].y) / dx);
    }
  }
  const slope = slopes.length ? median(slopes) : 0; // per ms
  const intercept = median(points.map((p) => p.y - slope * p.x));
  return {
    slopePerMin: slope * 60_000,
    growth: slope * (points[n - 1].x - points[0].x),
    at: (x) => intercept + slope * x,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Flatness of one series of {t, v} (MB) after the warm-up. */
export function flatness(series, warmupFraction = LIMITS.warmupFraction) {
  if (series.length === 0) return null;
  const t0 = series[0].t;
  const t1 = series[series.length - 1].t;
  const after = series.filter((s) => s.t >= t0 + (t1 - t0) * warmupFraction);
  const values = after.map((s) => s.v);
  const m = median(values);
  const f = fit(after.map((s) => ({ x: s.t, y: s.v })));
  const r = (x) => +x.toFixed(2);
  return {
    samples: after.length,
    first: r(series[0].v),
    median: r(m),
    max: r(Math.max(...values)),
    last: r(series[series.length - 1].v),
    // Peaks are measured from the trend line, not the median: RSS that falls over a long run (V8 returning
    // memory) would otherwise make an early, ordinary sample look like a spike.
    aboveTrend: r(Math.max(...after.map((s) => s.v - f.at(s.t)))),
    slopePerMin: r(f.slopePerMin),
    growth: r(f.growth),
    // How far the floor rose: lowest sample of the last third minus lowest of the first. The heap after GC is a
    // sawtooth (caches fill, a reset empties them): a median slope leans on the long rising edges and reads a
    // flat sawtooth as growth, while a leak lifts the floor itself.
    floorGrowth: r(
      Math.min(...values.slice(-Math.max(1, Math.floor(values.length / 3)))) -
        Math.min(...values.slice(0, Math.max(1, Math.floor(values.length / 3)))),
    ),
  };
}

/** Max of the first and the last third of a series, and the overall max. */
function thirds(xs) {
  const n = Math.max(1, Math.floor(xs.length / 3));
  return { firstThirdMax: Math.max(...xs.slice(0, n)), lastThirdMax: Math.max(...xs.slice(-n)), max: Math.max(...xs) };
}

function openFds(pid) {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

function countDirs(root) {
  let n = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) {
        n++;
        walk(path.join(d, e.name));
      }
    }
  };
  walk(root);
  return n + 1;
}

function readProbe(file) {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

/** Counts that must be back to their pre-storm values once the tree is back to its starting size. */
function leakView(probe, outside) {
  return {
    listeners: probe?.listeners ?? NaN,
    emitters: probe?.emitters ?? NaN,
    processListeners: probe ? Object.values(probe.processListeners).reduce((a, b) => a + b, 0) : NaN,
    timers: probe?.resources?.Timeout ?? 0,
    fsWatchers: probe?.resources?.FSEventWrap ?? 0,
    fds: outside.fds,
    inotifyWatches: outside.watches,
  };
}

export async function runSoak({
  seconds = 120,
  perSecond = 20,
  sampleMs = 2_000,
  cols = 120,
  rows = 40,
  log = () => {},
} = {}) {
  const tree = tree200();
  const probeFile = path.join(path.dirname(tree.root), 'probe.jsonl');
  const m = startMonitor({
    args: ['--root', tree.root],
    cols,
    rows,
    env: { OMC_TOP_PROBE_FILE: probeFile, OMC_TOP_PROBE_MS: String(sampleMs) },
    // A GC before each probe sample: what is left is what omc-top holds on to.
    nodeArgs: ['--expose-gc', '--import', pathToFileURL(PROBE).href],
  });
  const outside = [];
  const sampleOutside = () => {
    const s = procStats(m.pid);
    const o = { t: Date.now(), rssMb: s.rssMb, cpuMs: s.cpuMs, watches: s.watches, fds: openFds(m.pid) };
    outside.push(o);
    return o;
  };
  try {
    await m.waitScreen(/ live\s*$/m, 30_000);
    const sessions = /(\d+) sess/.exec(m.screen())?.[1];
    // Settle: let the first scans, the watcher set-up and a few probe samples pass.
    await sleep(3 * sampleMs);
    const dirs = countDirs(tree.root);
    const before = { probe: readProbe(probeFile).at(-1), outside: sampleOutside() };
    log(
      `started: ${sessions} sessions, ${dirs} directories, ${before.outside.watches} inotify watches, ${before.outside.fds} fds, ${before.outside.rssMb.toFixed(1)} MB RSS`,
    );

    const driver = startDriver({ root: tree.root, perSecond });
    const t0 = Date.now();
    // inotify watches beyond the directories that exist (sessions come and go, so compare at each sample).
    let watchesOverDirs = before.outside.watches - dirs;
    let maxWatches = before.outside.watches;
    while (Date.now() - t0 < seconds * 1000) {
      await sleep(sampleMs);
      if (m.exited) throw new Error('omc-top exited during the soak');
      const o = sampleOutside();
      maxWatches = Math.max(maxWatches, o.watches);
      watchesOverDirs = Math.max(watchesOverDirs, o.watches - countDirs(tree.root));
      if (outside.length % 5 === 0) {
        const p = readProbe(probeFile).at(-1);
        log(
          `${Math.round((Date.now() - t0) / 1000)} s: RSS ${o.rssMb.toFixed(1)} MB, heap ${(p?.heapUsed / 2 ** 20).toFixed(1)} MB, ${p?.listeners} listeners, ${o.fds} fds, ${o.watches} watches`,
        );
      }
    }
    const drove = driver.stop();
    const stormCpuMs = outside.at(-1).cpuMs - before.outside.cpuMs;

    // Back to the starting tree: the screen says so, then the counts must say so too.
    await m.waitScreen(new RegExp(`${sessions} sess`), 15_000);
    const mark = m.chunks.length;
    const sid = fs.readdirSync(path.join(tree.root, 'state', 'sessions')).sort()[0];
    const file = path.join(tree.root, 'state', 'sessions', sid, 'ralph-state.json');
    const prev = fs.existsSync(file)
      ? JSON.parse(fs.readFileSync(file, 'utf8'))
      : { session_id: sid, max_iterations: 10 };
    omcWrite(file, {
      ...prev,
      active: true,
      iteration: 77,
      max_iterations: 100,
      last_checked_at: new Date().toISOString(),
      session_id: sid,
    });
    const alive = await m.waitOutput('77/100', mark, 5_000);
    await sleep(3 * sampleMs);
    const after = { probe: readProbe(probeFile).at(-1), outside: sampleOutside() };

    const probe = readProbe(probeFile).filter((p) => p.t >= t0);
    const MB = 1024 * 1024;
    const result = {
      machine: machine(),
      seconds: Math.round((Date.now() - t0) / 1000),
      driver: drove,
      cpuPctDuringStorm: +((stormCpuMs / (seconds * 1000)) * 100).toFixed(1),
      directories: dirs,
      maxInotifyWatches: maxWatches,
      watchesOverDirs,
      stillLive: alive !== null,
      rss: flatness(outside.filter((o) => o.t >= t0).map((o) => ({ t: o.t, v: o.rssMb }))),
      rssAfterGc: flatness(probe.map((p) => ({ t: p.t, v: p.rss / MB }))),
      heapAfterGc: flatness(probe.map((p) => ({ t: p.t, v: p.heapUsed / MB }))),
      listenersDuringStorm: {
        min: Math.min(...probe.map((p) => p.listeners)),
        max: Math.max(...probe.map((p) => p.listeners)),
      },
      // Pending timers at each sample (trailing re-reads, repaint ticks, messages): a leak keeps climbing.
      timersDuringStorm: thirds(probe.map((p) => p.resources.Timeout ?? 0)),
      before: leakView(before.probe, before.outside),
      after: leakView(after.probe, after.outside),
    };
    return result;
  } finally {
    m.kill();
    tree.cleanup();
  }
}

/** What the soak concludes; an empty list means it passed. */
export function verdict(r) {
  const bad = [];
  if (!r.stillLive) bad.push('after the storm a change no longer reached the screen');
  if (r.driver.errors.length) bad.push(`the driver failed: ${r.driver.errors.join('; ')}`);
  if (r.rss.growth > LIMITS.rssGrowthMb)
    bad.push(`RSS grew ${r.rss.growth} MB after warm-up (limit ${LIMITS.rssGrowthMb})`);
  // Peaks are judged right after a GC (the probe's samples): between GCs RSS also holds garbage V8 has not collected yet.
  const gcRss = r.rssAfterGc ?? r.rss;
  if (gcRss.growth > LIMITS.rssGrowthMb)
    bad.push(`post-GC RSS grew ${gcRss.growth} MB after warm-up (limit ${LIMITS.rssGrowthMb})`);
  if (gcRss.aboveTrend > LIMITS.rssAboveTrendMb)
    bad.push(`post-GC RSS peaked ${gcRss.aboveTrend} MB above its trend (limit ${LIMITS.rssAboveTrendMb})`);
  if (r.heapAfterGc && r.heapAfterGc.floorGrowth > LIMITS.heapGrowthMb)
    bad.push(`post-GC heap floor rose ${r.heapAfterGc.floorGrowth} MB after warm-up (limit ${LIMITS.heapGrowthMb})`);
  for (const k of Object.keys(r.before)) {
    // A repaint tick or a trailing re-read may be pending at any moment: timers get that much slack, nothing else does.
    const slack = k === 'timers' ? 2 : 0;
    if (r.after[k] > r.before[k] + slack)
      bad.push(`${k}: ${r.before[k]} before the storm, ${r.after[k]} after it on the same tree`);
  }
  const t = r.timersDuringStorm;
  if (t.lastThirdMax > t.firstThirdMax + 3)
    bad.push(`pending timers climbed during the storm: up to ${t.firstThirdMax} early, ${t.lastThirdMax} late`);
  // One watch more than directories: the parent of the root, watched for the root coming back.
  if (r.watchesOverDirs > 1) bad.push(`up to ${r.watchesOverDirs} more inotify watches than directories`);
  return bad;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? dflt : process.argv[i + 1];
  };
  const r = await runSoak({
    seconds: Number(arg('seconds', process.env.OMC_TOP_SOAK_SECONDS ?? '120')),
    perSecond: Number(arg('rate', '20')),
    log: (s) => process.stderr.write(`${s}\n`),
  });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  const bad = verdict(r);
  process.stderr.write(bad.length ? `SOAK FAILED:\n  ${bad.join('\n  ')}\n` : 'soak: flat, no leaks\n');
  process.exit(bad.length ? 1 : 0);
}
