// Issue 18 benchmark: the fleet view. (1) `omc-top --all` over 20 local projects × 200 sessions (a
// live registry entry per project: a real sleeping process, so pid + procStart hold); (2) `omc-top
// --host` × 3 over a real sshd on loopback in a network namespace (test/fleet/sshd-harness.ts), each
// host a different remote dir of 2,000 sessions. First frame, time to live, RSS, idle CPU and
// change→screen (a visible row's iteration written on disk → the bytes that show it).
// The RSS / CPU are the fleet process's own; ssh clients and the remote omc-tops are separate processes
// (their RSS is printed too).
// The local run also starts omc-top on one of the 20 projects alone (same tree shape, same Claude registry), in the
// same run, for the issue-30 targets as ratios: the fleet's idle ÷ the sum of its projects' idle (20 × one), the
// fleet's change→screen p95 ÷ one project's, and the fleet's time to live against 7.5 s.
//   npx tsx bench/fleet.mjs [--local-only | --remote-only] [--idle 10] [--changes 20] [--cpu-prof DIR]
//                           [--bins base=path/omc-top.mjs,new=dist/omc-top.mjs] [--rounds 1]
// `--bins`: the local run for each build alternately (order reversed every round) on the same trees and registry,
// so a before/after pair shares the machine's load; each build's ratio lines, then new ÷ base per figure.
// `--cpu-prof DIR`: a V8 CPU profile of the `--all` process into DIR (an unminified bundle names functions:
// `--bin .bench-tmp/unminified/omc-top.mjs` after bench/profile.mjs built it).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatedTree, machine, now, omcWrite, pct, procStats, sleep, startMonitor } from './lib.mjs';
import { hostLine, ratioLine } from './targets-lib.mjs';
import { sshSkipReason, startSshRig } from '../test/fleet/sshd-harness.ts';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const idleSeconds = Number(arg('idle', '10'));
const changes = Number(arg('changes', '20'));
const CPU_PROF = arg('cpu-prof', null);
const FLEET_BIN = arg('bin', null);
const ROUNDS = Number(arg('rounds', '1'));
const BINS = arg('bins', null)
  ?.split(',')
  .map((b) => {
    const [label, file] = b.includes('=') ? b.split('=') : [path.basename(b), b];
    return { label, file: path.resolve(file) };
  }) ?? [{ label: FLEET_BIN ? path.basename(FLEET_BIN) : 'current', file: FLEET_BIN ? path.resolve(FLEET_BIN) : null }];
const ID = /\b([0-9a-f]{8})-[0-9a-f]{4}\b/g;

const startTicks = (pid) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

function gitInit(dir) {
  execFileSync('git', ['init', '-q', dir]);
}

/** Every session dir of the trees, by its first 8 hex digits. */
function indexSessions(roots) {
  const m = new Map();
  for (const root of roots)
    for (const d of fs.readdirSync(path.join(root, 'state', 'sessions'))) m.set(d.slice(0, 8), { root, sid: d });
  return m;
}

function bump(root, sid, iteration) {
  const file = path.join(root, 'state', 'sessions', sid, 'ralph-state.json');
  const s = JSON.parse(fs.readFileSync(file, 'utf8'));
  omcWrite(file, { ...s, active: true, iteration, last_checked_at: new Date().toISOString() });
}

async function measure(m, { liveRe, index, label, firstRe = /omc-top --all/ }) {
  const r = { run: label };
  r.firstFrameMs = Math.round((await m.waitScreen(firstRe, 60_000)) - m.spawnedAt);
  r.liveMs = Math.round((await m.waitScreen(liveRe, 180_000)) - m.spawnedAt);
  await sleep(1500);
  r.rssMb = Math.round(procStats(m.pid).rssMb);
  r.inotifyWatches = procStats(m.pid).watches;
  const i0 = procStats(m.pid);
  await sleep(idleSeconds * 1000);
  const i1 = procStats(m.pid);
  r.idleCpuPct = +(((i1.cpuMs - i0.cpuMs) / (idleSeconds * 1000)) * 100).toFixed(2);
  await m.settle();
  const visible = [...new Set([...m.screen().matchAll(ID)].map((x) => x[1]))].filter((id) => index.has(id)).slice(0, 5);
  const lat = [];
  let marker = 700000;
  for (let i = 0; i < changes; i++) {
    const { root, sid } = index.get(visible[i % visible.length]);
    const mark = m.chunks.length;
    const t0 = now();
    bump(root, sid, ++marker);
    const hit = await m.waitOutput(`${marker}/`, mark, 30_000);
    if (hit) lat.push(hit.t - t0);
    await sleep(250);
  }
  r.changeToScreenMs = { p50: Math.round(pct(lat, 50)), p95: Math.round(pct(lat, 95)), n: lat.length, of: changes };
  return r;
}

async function local() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-fleet-'));
  const home = path.join(base, 'home');
  const config = path.join(home, '.claude');
  fs.mkdirSync(path.join(config, 'sessions'), { recursive: true });
  const sleepers = [];
  const roots = [];
  try {
    for (let p = 0; p < 20; p++) {
      const t = generatedTree(200);
      const dir = path.dirname(t.root);
      gitInit(dir);
      roots.push(t.root);
      const sid = fs.readdirSync(path.join(t.root, 'state', 'sessions'))[0];
      const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
      sleepers.push(c);
      await sleep(50);
      fs.writeFileSync(
        path.join(config, 'sessions', `${c.pid}.json`),
        JSON.stringify({
          pid: c.pid,
          sessionId: sid,
          cwd: dir,
          procStart: startTicks(c.pid),
          status: 'busy',
          startedAt: Date.now(),
        }),
      );
    }
    const env = { HOME: home, CLAUDE_CONFIG_DIR: config, XDG_STATE_HOME: path.join(base, 'state') };
    const index = indexSessions(roots);
    const runs = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const bin of round % 2 ? [...BINS].reverse() : BINS) {
        const fleet = await localOnce(bin, env, roots, index);
        fleet.bin = bin.label;
        fleet.round = round;
        runs.push(fleet);
      }
    return runs;
  } finally {
    for (const c of sleepers) c.kill('SIGKILL');
    for (const r of roots) fs.rmSync(path.dirname(r), { recursive: true, force: true });
    fs.rmSync(base, { recursive: true, force: true });
  }
}

async function localOnce(bin, env, roots, index) {
  const binOpt = bin.file ? { bin: bin.file } : {};
  const m = startMonitor({
    args: ['--all'],
    cols: 160,
    rows: 40,
    env,
    ...binOpt,
    nodeArgs: CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(CPU_PROF)] : [],
  });
  let fleet;
  try {
    fleet = await measure(m, {
      liveRe: /20 roots(?![^\n]*reading)/,
      index,
      label: '--all: 20 projects × 200 sessions',
    });
  } finally {
    m.pty.kill('SIGTERM');
    await sleep(500);
  }
  // One of those projects alone, same viewport, same registry: what the fleet is held against.
  const one = startMonitor({ args: ['--root', roots[0]], cols: 160, rows: 40, env, ...binOpt });
  try {
    fleet.oneProject = await measure(one, {
      firstRe: /STATUS\s+SESSION/,
      liveRe: / live\s*$/m,
      index: indexSessions([roots[0]]),
      label: 'one of those projects alone (--root)',
    });
  } finally {
    one.pty.kill('SIGTERM');
    await sleep(500);
  }
  return fleet;
}

async function remote() {
  const skip = sshSkipReason();
  if (skip) return { run: '--host × 3', skipped: skip };
  const rig = await startSshRig([{ alias: 'box1' }, { alias: 'box2' }, { alias: 'box3' }]);
  const trees = [];
  try {
    await rig.startSshd();
    for (let h = 0; h < 3; h++) {
      const t = generatedTree(2000);
      gitInit(path.dirname(t.root));
      trees.push(t);
    }
    const args = trees.flatMap((t, i) => ['--host', `box${i + 1}:${path.dirname(t.root)}`]);
    // The client's own ssh config: an ssh wrapper on PATH adds -F (the fleet passes nothing that would override it).
    const env = {
      PATH: rig.clientPath,
      HOME: path.join(rig.dir, 'home'),
      CLAUDE_CONFIG_DIR: path.join(rig.dir, 'no-claude'),
    };
    const m = startMonitor({ args, cols: 160, rows: 40, env, wrap: rig.nsWrap });
    try {
      const r = await measure(m, {
        liveRe: /3 hosts(?! \()/,
        index: indexSessions(trees.map((t) => t.root)),
        label: '--host × 3: 2,000 sessions each over loopback sshd',
      });
      // The other processes of this view: ssh clients here, omc-top watch there.
      const others = execFileSync(
        'sh',
        ['-c', `ps -eo rss=,comm= | awk '$2=="ssh"{s+=$1} $2=="node"||$2=="MainThread"{n+=$1} END{print s" "n}'`],
        { encoding: 'utf8' },
      );
      r.sshClientsRssMb = Math.round(Number(others.trim().split(' ')[0] ?? 0) / 1024);
      return r;
    } finally {
      m.pty.kill('SIGTERM');
      await sleep(500);
    }
  } finally {
    await rig.close();
    for (const t of trees) t.cleanup();
  }
}

const out = { machine: machine(), idleSeconds, changes, results: [] };
if (!process.argv.includes('--remote-only')) out.results.push(...(await local()));
if (!process.argv.includes('--local-only')) out.results.push(await remote());
console.log(JSON.stringify(out, null, 2));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const byBin = new Map();
for (const r of out.results.filter((x) => x.oneProject)) (byBin.get(r.bin) ?? byBin.set(r.bin, []).get(r.bin)).push(r);
/** Each figure's median over the rounds (one round: the figure). */
const summary = new Map();
for (const [label, rs] of byBin) {
  const f = {
    idle: median(rs.map((r) => r.idleCpuPct)),
    oneIdle: median(rs.map((r) => r.oneProject.idleCpuPct)),
    p95: median(rs.map((r) => r.changeToScreenMs.p95)),
    p50: median(rs.map((r) => r.changeToScreenMs.p50)),
    oneP95: median(rs.map((r) => r.oneProject.changeToScreenMs.p95)),
    oneP50: median(rs.map((r) => r.oneProject.changeToScreenMs.p50)),
    live: median(rs.map((r) => r.liveMs)),
    oneLive: median(rs.map((r) => r.oneProject.liveMs)),
    first: median(rs.map((r) => r.firstFrameMs)),
    rss: median(rs.map((r) => r.rssMb)),
  };
  summary.set(label, f);
  const of = byBin.size > 1 ? ` [${label}; median of ${rs.length}]` : rs.length > 1 ? ` [median of ${rs.length}]` : '';
  console.log(
    ratioLine({
      target: `fleet \`--all\` (20 projects × 200) idle ÷ the sum of its projects' idle (20 × one alone)${of}`,
      value: f.idle / (20 * f.oneIdle),
      limit: 1,
      figures: `${f.idle} % ÷ 20 × ${f.oneIdle} % of a core over ${idleSeconds} s`,
    }),
  );
  console.log(
    ratioLine({
      target: `fleet change→screen p95 ÷ one project's${of}`,
      value: f.p95 / f.oneP95,
      limit: 1.5,
      figures: `${f.p95} / ${f.oneP95} ms (p50 ${f.p50} / ${f.oneP50}), ${changes} changes each`,
    }),
  );
  console.log(
    ratioLine({
      target: `fleet time to live ÷ 7.5 s${of}`,
      value: f.live / 7500,
      limit: 1,
      figures: `live after ${f.live} ms (one project alone: ${f.oneLive} ms); first frame ${f.first} ms`,
    }),
  );
  console.log(
    ratioLine({
      target: `fleet time to live ÷ 20 × one project's (the same machine, the same moment)${of}`,
      value: f.live / (20 * f.oneLive),
      limit: 1,
      figures: `${f.live} ms ÷ 20 × ${f.oneLive} ms`,
    }),
  );
}
if (summary.size > 1) {
  const [[baseLabel, b], ...rest] = summary;
  for (const [label, n] of rest)
    console.log(
      `${label} ÷ ${baseLabel}: idle ${(n.idle / b.idle).toFixed(2)}×, p95 ${(n.p95 / b.p95).toFixed(2)}×, p50 ${(n.p50 / b.p50).toFixed(2)}×, ` +
        `time to live ${(n.live / b.live).toFixed(2)}×, first frame ${(n.first / b.first).toFixed(2)}×, RSS ${(n.rss / b.rss).toFixed(2)}× ` +
        `(one project alone: idle ${(n.oneIdle / b.oneIdle).toFixed(2)}×, p95 ${(n.oneP95 / b.oneP95).toFixed(2)}×, live ${(n.oneLive / b.oneLive).toFixed(2)}×)`,
    );
}
console.log(hostLine(out.machine));
process.exit(0);
