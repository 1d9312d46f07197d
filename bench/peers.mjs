// Side by side in one run: OMC's own `omc hud --watch` (the statusline in a
// loop, default interval 1 s) and omc-top --poll (the polling baseline) against
// omc-top watching, on the same change: a ralph iteration written the way OMC's
// Stop hook writes it, on the trees BENCHMARKS.md names (the 200-session real-OMC
// load tree, 2,000 generated sessions). Prints one JSON line per contender and
// tree, then one line of ratios (omc-top watching / omc hud --watch) per tree.
//   node bench/peers.mjs [--changes 20] [--idle 20] [--trees 200,2000] [--no-poll] [--bins label=path.mjs,…]
// `--bins`: omc-top watching is run once per build, one after the other on the same tree, against the one
// `hud --watch` measurement (before/after pairs); a row per build.
// Then one table row per tree for the issue-30 target: `hud --watch` change→screen p95 ÷ omc-top's ≥ 50×.
// Each change is timed as bench/flat.mjs times it: from the moment OMC's rename returned (the state read and the temp
// file written and fsynced before the clock starts) to the arrival of the output that shows it (the pty's data
// event, stamped as it arrives). Before 2026-12-04 the clock started before the bench read and wrote the file and
// stopped at the next 2 ms poll of the whole output so far, which put the bench's own disk time and polling into both
// contenders' figures: about half of omc-top's ~10 ms, next to nothing of `hud --watch`'s ~750.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { spawn as ptySpawn } from '@lydell/node-pty';
import {
  generatedTree,
  machine,
  now,
  omcWriteLanded,
  outputArrival,
  pct,
  procStats,
  sleep,
  startMonitor,
  tree200,
} from './lib.mjs';
import { OMC55 } from '../test/helpers/omc-packages.mjs';
import { hostLine, ratioLine } from './targets-lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const CHANGES = Number(arg('changes', '20'));
const IDLE = Number(arg('idle', '20'));
const TREES = String(arg('trees', '200,2000')).split(',').map(Number);
const OMC_CLI = path.join(OMC55, 'bridge', 'cli.cjs');
const BINS = arg('bins', null)
  ?.split(',')
  .map((b) => {
    const [label, file] = b.split('=');
    return { label, file: path.resolve(file) };
  }) ?? [{ label: null, file: undefined }];

/**
 * A git project holding the tree (`n` = 200: the real-OMC load tree; else `n` generated sessions), one
 * session SID whose ralph iteration the change bumps, and a HUD stdin cache pointing at SID.
 */
function project(n) {
  const tree = n === 200 ? tree200() : generatedTree(n);
  const dir = fs.realpathSync(path.dirname(tree.root));
  execFileSync('git', ['init', '-q', dir]);
  const sessions = path.join(dir, '.omc', 'state', 'sessions');
  const sid = fs.readdirSync(sessions).sort()[0];
  const home = path.join(dir, 'home');
  const transcript = path.join(home, '.claude', 'projects', 'x', `${sid}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, '');
  // What Claude Code hands the statusline; `hud --watch` replays the last one it saw.
  fs.writeFileSync(
    path.join(dir, '.omc', 'state', 'hud-stdin-cache.json'),
    JSON.stringify({
      cwd: dir,
      transcript_path: transcript,
      model: { id: 'claude-sonnet-4', display_name: 'Sonnet 4' },
      context_window: { context_window_size: 200000, current_usage: { input_tokens: 1000 } },
    }),
  );
  const file = path.join(sessions, sid, 'ralph-state.json');
  /** OMC's write of the next iteration; returns the moment its rename returned (omcWriteLanded). */
  const bump = (iteration) => {
    let s = { active: true, session_id: sid, started_at: new Date().toISOString() };
    try {
      s = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      /* no ralph in this session yet: start one */
    }
    const next = { ...s, active: true, iteration, max_iterations: 99999, last_checked_at: new Date().toISOString() };
    return omcWriteLanded(file, next).landed;
  };
  bump(1);
  return { dir, home, sid, bump, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function measure(label, proc, bump, chunks) {
  const out = { contender: label };
  await sleep(2500);
  const s0 = procStats(proc.pid);
  await sleep(IDLE * 1000);
  const s1 = procStats(proc.pid);
  out.idleCpuPct = +(((s1.cpuMs - s0.cpuMs) / (IDLE * 1000)) * 100).toFixed(2);
  out.rssMb = Math.round(s1.rssMb);
  const lat = [];
  for (let i = 0; i < CHANGES; i++) {
    const value = 50000 + i;
    const from = chunks.length;
    const landed = bump(value);
    const shown = await outputArrival(chunks, `${value}/`, from, 5000);
    if (shown !== null) lat.push(shown.t - landed);
    await sleep(300 + Math.random() * 400);
  }
  out.missed = CHANGES - lat.length;
  out.changeToScreenMs = {
    p50: +pct(lat, 50).toFixed(0),
    p95: +pct(lat, 95).toFixed(0),
    max: +Math.max(...lat).toFixed(0),
  };
  return out;
}

/**
 * Waits until `pid` has exited (its /proc entry gone, or a zombie), up to `ms`, then kills it; the ms it took. The
 * next contender is measured on the same two cores: a `hud --watch` still finishing a 3 s render at 10,000 sessions
 * after SIGTERM would share them with it.
 */
async function gone(pid, ms = 10_000) {
  const t0 = now();
  const alive = () => {
    try {
      return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };
  while (alive() && now() - t0 < ms) await sleep(20);
  if (alive()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
  return Math.round(now() - t0);
}

async function omcHudWatch(n) {
  const p = project(n);
  const env = { PATH: process.env.PATH, HOME: p.home, OMC_NOTIFY: '0', TERM: 'xterm-256color', COLUMNS: '200' };
  // It needs a terminal (in watch mode stdin is a TTY and it replays the cached statusline input).
  const child = ptySpawn(process.execPath, [OMC_CLI, 'hud', '--watch'], {
    name: 'xterm-256color',
    cols: 200,
    rows: 40,
    cwd: p.dir,
    env,
  });
  const chunks = [];
  child.onData((d) => chunks.push({ t: now(), d }));
  let r = null;
  try {
    r = await measure('omc hud --watch (OMC 5.5.0, 1 s interval)', child, p.bump, chunks);
    const bytes = chunks.reduce((n, c) => n + c.d.length, 0);
    r.bytesPerSecond = Math.round(bytes / ((IDLE + 3) * 1.0 + CHANGES * 0.7));
    return r;
  } finally {
    try {
      child.kill('SIGTERM');
    } catch {
      /* already gone */
    }
    const ms = await gone(child.pid);
    if (r) r.exitedAfterMs = ms;
    p.cleanup();
  }
}

/** `shared`: the tree of an earlier build's run (every build of `--bins` on the same sessions and filter). */
async function omcTop(n, extraArgs, label, bin, shared = null) {
  const p = shared ?? project(n);
  const m = startMonitor({
    ...(bin === undefined ? {} : { bin }),
    args: ['--root', path.join(p.dir, '.omc'), ...extraArgs],
    cols: 200,
    rows: 40,
    env: { XDG_STATE_HOME: path.join(p.dir, 'xdg') },
  });
  try {
    // Everything read (the footer says live, or polling under --poll) before the filter is typed.
    await m.waitScreen(/(?: live|poll\S*)\s*$/m, 180_000);
    // The HUD shows the one session; omc-top is filtered to it, so the change is on screen in both.
    m.pty.write(`/${p.sid.slice(0, 8)}\r`);
    await m.waitScreen(/ 1 of \d+ match/, 20_000);
    return await measure(label, { pid: m.pid }, p.bump, m.chunks);
  } finally {
    m.kill();
    await gone(m.pid);
    if (!shared) p.cleanup();
  }
}

const host = machine();
console.log(JSON.stringify({ machine: host }));
const rows = [];
for (const n of TREES) {
  const tree = n === 200 ? '200 sessions (real OMC load tree)' : `${n} sessions (generated)`;
  const hud = { tree, ...(await omcHudWatch(n)) };
  console.log(JSON.stringify(hud));
  if (!process.argv.includes('--no-poll'))
    console.log(JSON.stringify({ tree, ...(await omcTop(n, ['--poll'], 'omc-top --poll (polling baseline, 1 s)')) }));
  const shared = BINS.length > 1 ? project(n) : null;
  for (const b of BINS) {
    const label = b.label === null ? 'omc-top (watching)' : `omc-top (watching) [${b.label}]`;
    const top = { tree, ...(await omcTop(n, [], label, b.file, shared)) };
    console.log(JSON.stringify(top));
    const ratio = (k) => +(top.changeToScreenMs[k] / hud.changeToScreenMs[k]).toFixed(3);
    console.log(
      JSON.stringify({
        tree,
        ratio: 'omc-top (watching) / omc hud --watch, same change, same run',
        ...(b.label === null ? {} : { bin: b.label }),
        changeToScreen: { p50: ratio('p50'), p95: ratio('p95') },
        idleCpu: +(top.idleCpuPct / hud.idleCpuPct).toFixed(3),
      }),
    );
    rows.push(
      ratioLine({
        target: `omc-top speed-up over \`omc hud --watch\` (OMC 5.5.0), change→screen p95, ${n.toLocaleString('en')} sessions${b.label === null ? '' : ` [${b.label}]`}`,
        value: hud.changeToScreenMs.p95 / top.changeToScreenMs.p95,
        limit: 50,
        atLeast: true,
        figures: `${hud.changeToScreenMs.p95} / ${top.changeToScreenMs.p95} ms, ${CHANGES} changes each`,
      }),
    );
  }
  if (shared) {
    await sleep(300);
    shared.cleanup();
  }
}
for (const r of rows) console.log(r);
console.log(hostLine(host));
process.exit(0);
