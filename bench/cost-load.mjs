// Issue 26 benchmark: the monitor with every session's cost read. The real OMC load tree (200 sessions), each
// with a `--mb` MB Claude Code-shaped transcript and `--subagents` subagent files beside it (with their
// .meta.json). Start-up (spawn → the footer's bare `live`: every .omc domain read and the watches up; transcripts
// may still be being read, subagent files are read after it), when the reading ended (readDoneMs: the last quarter
// second with a megabyte read, within --settle), the bytes read by then and once settled
// (/proc/<pid>/io rchar), idle CPU after start-up settled, and RSS, for each build in `--bins`, run alternately on
// the same files (paired rounds: the machine is shared, so the ratio within one run is the figure to trust, not
// the absolute times).
//   node bench/cost-load.mjs [--bins base=/path/to/main/dist/omc-top.mjs,cost=dist/omc-top.mjs]
//                            [--mb 10] [--subagents 2] [--sub-mb 1] [--rounds 2] [--settle 20] [--idle 20]
//                            [--keep DIR] [--cpu-prof DIR]
// `--keep DIR`: the tree and the Claude files are written into DIR once and left there; a later run with the same
// DIR (and the same sizes) reads them again instead of writing 3 GB. `--cpu-prof DIR`: a V8 CPU profile of each
// monitor into DIR (written when it exits on the run's SIGTERM; an unminified bundle names functions:
// `node scripts/build.mjs --no-minify`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, machine, now, procStats, sleep, startMonitor, tree200 } from './lib.mjs';
import { writeTranscript } from './claude/transcripts.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const MB = Number(arg('mb', '10'));
const SUBAGENTS = Number(arg('subagents', '2'));
const SUB_MB = Number(arg('sub-mb', '1'));
const ROUNDS = Number(arg('rounds', '2'));
const SETTLE = Number(arg('settle', '20'));
const IDLE = Number(arg('idle', '20'));
const KEEP = arg('keep', null);
const CPU_PROF = arg('cpu-prof', null);
const BINS = String(arg('bins', `current=${BIN}`))
  .split(',')
  .map((b) => {
    const [label, file] = b.includes('=') ? b.split('=') : [path.basename(b), b];
    return { label, file: path.resolve(file) };
  });

console.log(JSON.stringify({ machine: machine() }));
// What a kept directory was written with: reused only for the same sizes.
const shape = JSON.stringify({ mb: MB, subagents: SUBAGENTS, subMb: SUB_MB });
const kept =
  KEEP && fs.existsSync(path.join(KEEP, 'ready.json'))
    ? fs.readFileSync(path.join(KEEP, 'ready.json'), 'utf8') === shape
    : false;
if (KEEP && fs.existsSync(path.join(KEEP, 'ready.json')) && !kept) throw new Error(`${KEEP} holds other sizes`);
let tree;
if (KEEP) {
  const dir = path.resolve(KEEP, 'tree');
  if (!kept) {
    fs.rmSync(KEEP, { recursive: true, force: true });
    const t = tree200();
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.renameSync(path.dirname(t.root), dir);
  }
  tree = { root: path.join(dir, '.omc'), cleanup: () => {} };
} else tree = tree200();
const projectDir = path.dirname(tree.root);
const cfg = KEEP ? path.resolve(KEEP, 'claude') : fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-cost-'));
const enc = projectDir.replace(/[^a-zA-Z0-9]/g, '-');
const projects = path.join(cfg, 'projects', enc);
fs.mkdirSync(projects, { recursive: true });
const sids = fs.readdirSync(path.join(tree.root, 'state', 'sessions'));
let bytes = 0;
const tWrite = now();
for (const sid of kept ? [] : sids) {
  bytes += writeTranscript(path.join(projects, `${sid}.jsonl`), sid, MB).bytes;
  // Subagent files as Claude Code 2.1.332 lays them out: <session>/subagents/agent-<id>.jsonl + .meta.json.
  const subDir = path.join(projects, sid, 'subagents');
  fs.mkdirSync(subDir, { recursive: true });
  for (let k = 0; k < SUBAGENTS; k++) {
    const id = `a${k}${sid.replace(/[^0-9a-f]/g, '').slice(0, 15)}`;
    bytes += writeTranscript(path.join(subDir, `agent-${id}.jsonl`), sid, SUB_MB).bytes;
    fs.writeFileSync(
      path.join(subDir, `agent-${id}.meta.json`),
      JSON.stringify({ agentType: k % 2 ? 'Explore' : 'general-purpose' }),
    );
  }
}
if (KEEP && !kept) fs.writeFileSync(path.join(KEEP, 'ready.json'), shape);
console.log(
  JSON.stringify({
    setup: {
      kept,
      sessions: sids.length,
      transcripts: sids.length,
      subagentFiles: sids.length * SUBAGENTS,
      totalMb: Math.round(bytes / 1048576),
      writeMs: Math.round(now() - tWrite),
    },
  }),
);

function readMb(pid) {
  try {
    const rchar = /rchar:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1];
    return rchar === undefined ? null : Math.round(Number(rchar) / 1048576);
  } catch {
    return null;
  }
}

async function one(bin) {
  const m = startMonitor({
    args: ['--root', tree.root],
    cols: 120,
    rows: 40,
    bin: bin.file,
    nodeArgs: CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(CPU_PROF, bin.label)] : [],
    env: { CLAUDE_CONFIG_DIR: cfg },
    // The project directory is the cwd: from the repository, no transcript written here would be found (they
    // are written under the tree's project directory's encoded name).
    cwd: projectDir,
  });
  try {
    const liveAt = await m.waitScreen(/ live\s*$/m, 300_000);
    const rssAtLive = procStats(m.pid).rssMb;
    // What the monitor had read when it said live (the kernel's count of bytes read, /proc/<pid>/io rchar).
    const readAtLive = readMb(m.pid);
    // When the reading ended: the last quarter second in which the monitor read a megabyte or more (within the
    // settle window: a longer read shows as null).
    let readDoneMs = null;
    let prev = readAtLive ?? 0;
    const settleEnd = now() + SETTLE * 1000;
    while (now() < settleEnd) {
      await sleep(250);
      const mb = readMb(m.pid) ?? prev;
      if (mb - prev >= 1) readDoneMs = Math.round(now() - m.spawnedAt);
      prev = mb;
    }
    if (readDoneMs !== null && readDoneMs > SETTLE * 1000 + liveAt - m.spawnedAt - 1000) readDoneMs = null;
    const a = procStats(m.pid);
    await sleep(IDLE * 1000);
    const b = procStats(m.pid);
    return {
      bin: bin.label,
      liveMs: Math.round(liveAt - m.spawnedAt),
      readDoneMs,
      rssAtLiveMb: Math.round(rssAtLive),
      readMbAtLive: readAtLive,
      readMbSettled: readMb(m.pid),
      idleCpuPct: +(((b.cpuMs - a.cpuMs) / (IDLE * 1000)) * 100).toFixed(3),
      settledRssMb: Math.round(b.rssMb),
    };
  } finally {
    m.kill();
  }
}

const results = new Map(BINS.map((b) => [b.label, []]));
try {
  for (let r = 0; r < ROUNDS; r++)
    for (const bin of r % 2 ? [...BINS].reverse() : BINS) {
      const x = await one(bin);
      results.get(bin.label).push(x);
      console.log(JSON.stringify({ round: r + 1, ...x }));
    }
  const median = (xs) => {
    const s = [...xs].sort((p, q) => p - q);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = {};
  for (const [label, xs] of results)
    summary[label] = {
      liveMs: median(xs.map((x) => x.liveMs)),
      readDoneMs: xs.some((x) => x.readDoneMs === null) ? null : median(xs.map((x) => x.readDoneMs)),
      idleCpuPct: median(xs.map((x) => x.idleCpuPct)),
      rssAtLiveMb: median(xs.map((x) => x.rssAtLiveMb)),
      settledRssMb: median(xs.map((x) => x.settledRssMb)),
      readMbAtLive: median(xs.map((x) => x.readMbAtLive ?? 0)),
    };
  if (BINS.length === 2) {
    const [base, cur] = BINS.map((b) => summary[b.label]);
    summary.ratio = Object.fromEntries(
      Object.keys(base).map((k) => [k, base[k] && cur[k] !== null ? +(cur[k] / base[k]).toFixed(2) : null]),
    );
  }
  console.log(JSON.stringify({ medians: summary }));
} finally {
  tree.cleanup();
  if (!KEEP) fs.rmSync(cfg, { recursive: true, force: true });
}
