// The leak check: the soak's question ("does anything omc-top holds keep
// growing?") asked without a clock, so machine load cannot change its answer.
//
// The real bundle runs in a pty on the 200-session real-OMC tree. The soak's
// own change generator makes its changes in fixed cycles of 20; after each
// cycle a marker iteration is written and we wait until the screen shows it,
// so every cycle has been seen and handled whatever the load. Samples are
// taken on demand (SIGUSR2 → bench/soak/probe.mjs forces a GC and writes one
// line), at the same point of a cycle each time:
//   - counts (listeners, emitters, process listeners, fs watchers, descriptors,
//     inotify watches) must be exactly back where they were once the tree is
//     back to its starting size (timers ± 2: a repaint or a trailing re-read
//     may be pending), each the lowest of a few samples on each side (a write
//     in flight holds descriptors for a moment);
//   - the post-GC heap may not rise more than LEAK_LIMITS.heapMb from the
//     warm baseline to the end (the lowest of a few samples on each side, so
//     a collection that happened to run late cannot count as growth).
// RSS is not judged: it is the allocator's choice to return pages, not
// omc-top's to hold them (the long soak in bench/soak/soak.mjs still records it).
//
// OMC_TOP_PROBE_LEAK=1 injects a real leak (see probe.mjs); the test keeps a
// run with it to prove this check fails when something leaks.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { omcWrite, procStats, sleep, startMonitor, tree200 } from '../lib.mjs';
import { makeChanger } from './driver.mjs';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'probe.mjs');

// The post-GC heap of a healthy run moves by up to ~5 MB between two points at rest, whatever the number of
// cycles (bounded caches refilling, JIT code, measured 2026-12-01: -2.2 … +4.7 MB over 10 to 120 cycles), so
// the limit sits above that; a leak grows with the cycles, and the injected one is run long enough to clear it
// several times over.
export const LEAK_LIMITS = { heapMb: 8, timerSlack: 2 };

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

function openFds(pid) {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

/**
 * The descriptors held at rest: the fewest open over one second of polls. Each sample follows a marker write the
 * screen has shown, and the monitor answers that write with writes of its own (the iteration samples, the status
 * cache: a temp file and its directory open until the fsync and rename are done). On a slow disk or a loaded
 * machine such a write was still in flight at all three samples (CI on 2026-12-06: fds 25, 24, 25 against 23),
 * though nothing was kept. A descriptor that leaked is open at every poll; one in flight is not, once its write
 * ends, and no other write is asked for meanwhile (the next marker comes after the sample).
 */
async function fewestFds(pid) {
  let fewest = openFds(pid);
  for (const end = Date.now() + 1000; Date.now() < end;) {
    await sleep(10);
    fewest = Math.min(fewest, openFds(pid));
  }
  return fewest;
}

/**
 * Each count's lowest over the samples at rest: a sample is taken just after a marker write has been shown, when
 * the status cache's or the samples file's write may still be in flight (its temp file and directory open for a
 * moment: CI once saw fds 23 → 25). A leak grows with the cycles, so its lowest still rises.
 */
const lowest = (samples) =>
  Object.fromEntries(Object.keys(samples[0].counts).map((k) => [k, Math.min(...samples.map((s) => s.counts[k]))]));

/** Runs the check; returns what it measured (judge it with leakVerdict). */
export async function runLeakCheck({ cycles = 30, perCycle = 20, leak = false, log = () => {} } = {}) {
  const tree = tree200();
  const probeFile = path.join(path.dirname(tree.root), 'probe.jsonl');
  // A fresh, active session of our own: sorted to the top, so its row is always on screen.
  const sid = 'a11ce000-0000-4000-8000-00000000leak';
  const marker = path.join(tree.root, 'state', 'sessions', sid, 'ralph-state.json');
  const base = { active: true, iteration: 1, max_iterations: 99_999, session_id: sid, prompt: 'leak marker' };
  fs.mkdirSync(path.dirname(marker), { recursive: true });
  const markerAt = () => ({ started_at: new Date().toISOString(), last_checked_at: new Date().toISOString() });
  omcWrite(marker, { ...base, ...markerAt() });
  // omc-top's state directory as after a user's first run (it exists): the acknowledgements' watch on it is then
  // set at start. Made by the first write instead, it is watched a few seconds later (looked for on a timer), which
  // a loaded machine let fall after the baseline: one watch, listener and emitter "more" at the end (CI saw it).
  const stateHome = path.join(path.dirname(tree.root), 'state-home');
  fs.mkdirSync(path.join(stateHome, 'omc-top'), { recursive: true });
  const m = startMonitor({
    args: ['--root', tree.root],
    cols: 120,
    rows: 40,
    env: {
      XDG_STATE_HOME: stateHome,
      OMC_TOP_PROBE_FILE: probeFile,
      OMC_TOP_PROBE_MS: '0',
      ...(leak ? { OMC_TOP_PROBE_LEAK: '1' } : {}),
    },
    nodeArgs: ['--expose-gc', '--import', pathToFileURL(PROBE).href],
  });
  let mark = 0;
  /** Writes iteration `k` of a marker session and waits until the screen shows it: the cycle was handled. */
  const seen = async (k) => {
    const from = m.chunks.length;
    omcWrite(marker, { ...base, ...markerAt(), iteration: k });
    const hit = await m.waitOutput(`${k}/99999`, from, 60_000);
    if (hit === null) throw new Error(`the screen never showed iteration ${k}:\n${m.screen()}`);
  };
  /** One on-demand probe sample plus the outside view. */
  const sample = async () => {
    const before = readProbe(probeFile).length;
    process.kill(m.pid, 'SIGUSR2');
    const deadline = Date.now() + 60_000;
    while (readProbe(probeFile).length === before) {
      if (Date.now() > deadline || m.exited) throw new Error('the probe never answered');
      await sleep(20);
    }
    const p = readProbe(probeFile).at(-1);
    const o = procStats(m.pid);
    const fds = await fewestFds(m.pid);
    return {
      heapMb: p.heapUsed / 2 ** 20,
      counts: {
        listeners: p.listeners,
        emitters: p.emitters,
        processListeners: Object.values(p.processListeners).reduce((a, b) => a + b, 0),
        timers: p.resources.Timeout ?? 0,
        fsWatchers: p.resources.FSEventWrap ?? 0,
        fds,
        inotifyWatches: o.watches,
      },
    };
  };
  const changer = makeChanger(tree.root);
  const cycle = async () => {
    for (let i = 0; i < perCycle; i++) changer.next();
    await seen(1_000 + ++mark);
  };
  /** Back to the starting tree, seen on screen, then a few samples at rest. */
  const atRest = async (n) => {
    changer.restore();
    await seen(1_000 + ++mark);
    const out = [];
    for (let i = 0; i < n; i++) {
      await seen(1_000 + ++mark);
      out.push(await sample());
    }
    return out;
  };
  try {
    await m.waitScreen(/ live\s*$/m, 60_000);
    // Warm-up: caches, the wiki index and JIT reach their working size.
    for (let i = 0; i < 5; i++) await cycle();
    const before = await atRest(3);
    log(
      `baseline: heap ${before.map((s) => s.heapMb.toFixed(1)).join(', ')} MB, ${JSON.stringify(lowest(before))} (fds ${before.map((s) => s.counts.fds).join(', ')})`,
    );
    for (let i = 0; i < cycles; i++) await cycle();
    const after = await atRest(3);
    log(
      `after ${cycles} cycles: heap ${after.map((s) => s.heapMb.toFixed(1)).join(', ')} MB, ${JSON.stringify(lowest(after))} (fds ${after.map((s) => s.counts.fds).join(', ')})`,
    );
    return {
      cycles,
      changes: changer.made,
      heapBeforeMb: Math.min(...before.map((s) => s.heapMb)),
      heapAfterMb: Math.min(...after.map((s) => s.heapMb)),
      before: lowest(before),
      after: lowest(after),
    };
  } finally {
    m.kill();
    tree.cleanup();
  }
}

/** What the check concludes; an empty list means nothing leaked. */
export function leakVerdict(r) {
  const bad = [];
  const rise = r.heapAfterMb - r.heapBeforeMb;
  if (rise > LEAK_LIMITS.heapMb)
    bad.push(`post-GC heap rose ${rise.toFixed(1)} MB over ${r.cycles} cycles (limit ${LEAK_LIMITS.heapMb})`);
  for (const k of Object.keys(r.before)) {
    const slack = k === 'timers' ? LEAK_LIMITS.timerSlack : 0;
    if (r.after[k] > r.before[k] + slack) bad.push(`${k}: ${r.before[k]} before, ${r.after[k]} after on the same tree`);
  }
  return bad;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await runLeakCheck({
    cycles: Number(process.argv[2] ?? 30),
    leak: process.env.OMC_TOP_PROBE_LEAK === '1',
    log: (s) => process.stderr.write(`${s}\n`),
  });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  const bad = leakVerdict(r);
  process.stderr.write(bad.length ? `LEAK:\n  ${bad.join('\n  ')}\n` : 'leak check: nothing grew\n');
  process.exit(bad.length ? 1 : 0);
}
