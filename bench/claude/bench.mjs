// Issue 15 benchmark: the monitor with Claude Code's side joined in. 200 OMC sessions (the real
// OMC load tree), each with a live registry entry (a real idle process, so pid + procStart hold)
// and a 10 MB transcript. Measures the monitor with and without them (first frame, live, idle
// CPU, change→screen, from bench/monitor.mjs), and in-process: the first read of every
// transcript and transcript append → store snapshot.
//   npx tsx bench/claude/bench.mjs   (tsx: the in-process part imports the store's TypeScript)
//   node bench/claude/bench.mjs [--mb 10] [--changes 50] [--idle 20] [--appends 50]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { benchMonitor } from '../monitor.mjs';
import { machine, pct, procStats, sleep, startMonitor, tree200 } from '../lib.mjs';
import { appendResponse, writeTranscript } from './transcripts.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const MB = Number(arg('mb', '10'));
const changes = Number(arg('changes', '50'));
const idle = Number(arg('idle', '20'));
const appends = Number(arg('appends', '50'));
const settle = Number(arg('settle', '20'));

const startTicks = (pid) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

console.log(JSON.stringify({ machine: machine() }));
const tree = tree200();
const projectDir = path.dirname(tree.root);
const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-claude-'));
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-noclaude-'));
const sids = fs.readdirSync(path.join(tree.root, 'state', 'sessions'));
const enc = projectDir.replace(/[^a-zA-Z0-9]/g, '-');
fs.mkdirSync(path.join(cfg, 'sessions'));
fs.mkdirSync(path.join(cfg, 'projects', enc), { recursive: true });
const children = [];
let totalBytes = 0;
const expected = new Map();
const tWrite = performance.now();
for (const sid of sids) {
  const child = spawn('sleep', ['86400'], { stdio: 'ignore' });
  children.push(child);
  const w = writeTranscript(path.join(cfg, 'projects', enc, `${sid}.jsonl`), sid, MB);
  totalBytes += w.bytes;
  expected.set(sid, w.tokens.input);
  fs.writeFileSync(
    path.join(cfg, 'sessions', `${child.pid}.json`),
    JSON.stringify({
      pid: child.pid,
      sessionId: sid,
      cwd: projectDir,
      procStart: startTicks(child.pid),
      version: '2.1.332',
      kind: 'interactive',
      entrypoint: 'cli',
      status: 'idle',
      statusUpdatedAt: Date.now(),
    }),
  );
}
console.log(
  JSON.stringify({
    setup: {
      sessions: sids.length,
      transcripts: sids.length,
      totalMb: Math.round(totalBytes / 1048576),
      writeMs: Math.round(performance.now() - tWrite),
    },
  }),
);

try {
  // In-process: the store alone (no terminal): first read of all transcripts, then appends.
  // Only under tsx (the store is TypeScript); plain node runs the monitor part alone.
  const mod = await Promise.all([
    import('../../src/store/store.ts'),
    import('../../src/store/claude/register.ts'),
  ]).catch(() => null);
  if (mod) await inProcess({ ...mod[0], ...mod[1] });
  else console.log(JSON.stringify({ inProcess: 'skipped: run under tsx for the store-level numbers' }));
  for (const [label, dir] of [
    ['without Claude data', empty],
    [`with 200 registry entries + 200 × ${MB} MB transcripts`, cfg],
  ]) {
    process.env.CLAUDE_CONFIG_DIR = dir;
    const r = await benchMonitor({
      root: tree.root,
      label,
      cols: 80,
      rows: 24,
      changes,
      idleSeconds: idle,
      sustainSeconds: 5,
    });
    console.log(JSON.stringify(r));
    console.log(JSON.stringify({ tree: label, settledIdle: await settledIdle() }));
  }
} finally {
  for (const c of children) c.kill('SIGKILL');
  tree.cleanup();
  fs.rmSync(cfg, { recursive: true, force: true });
  fs.rmSync(empty, { recursive: true, force: true });
}

/** Idle after the first read of every transcript is over: `settle` s after "live", then `idle` s. */
async function settledIdle() {
  const m = startMonitor({ args: ['--root', tree.root], cols: 80, rows: 24 });
  try {
    await m.waitScreen(/ live\s*$/m, 60_000);
    await sleep(settle * 1000);
    const a = procStats(m.pid);
    const c0 = m.chunks.length;
    await sleep(idle * 1000);
    const b = procStats(m.pid);
    const out = m.chunks.slice(c0);
    if (process.env.BENCH_SHOW_IDLE_OUTPUT)
      console.error(
        JSON.stringify(
          out
            .map((c) => c.d)
            .join('')
            .slice(0, 2000),
        ),
      );
    return {
      settleSeconds: settle,
      seconds: idle,
      cpuPct: +(((b.cpuMs - a.cpuMs) / (idle * 1000)) * 100).toFixed(3),
      frames: out.length,
      bytesPerSec: Math.round(out.reduce((n, c) => n + c.d.length, 0) / idle),
      rssMb: Math.round(b.rssMb),
    };
  } finally {
    m.kill();
  }
}

async function inProcess(mod) {
  const { OmcStore } = mod;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const store = new OmcStore({
    root: tree.root,
    watch: 'none',
    projectDir,
    claude: { env: { CLAUDE_CONFIG_DIR: cfg } },
  });
  const claude = store.claude;
  store.start();
  // Caught up = every transcript's token sum equals what was written.
  const caughtUp = () =>
    sids.every((sid) => claude.getSnapshot().bySession.get(sid)?.transcript?.facts.tokens.input === expected.get(sid));
  while (!caughtUp()) await new Promise((r) => setTimeout(r, 5));
  const firstRead = {
    ms: Math.round(performance.now() - t0),
    cpuMs: Math.round((process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1000),
  };
  const lat = [];
  for (let i = 0; i < appends; i++) {
    const sid = sids[i % sids.length];
    const before = claude.getSnapshot().bySession.get(sid).transcript.facts.tokens.input;
    const tw = performance.now();
    appendResponse(path.join(cfg, 'projects', enc, `${sid}.jsonl`), sid, i);
    while (claude.getSnapshot().bySession.get(sid).transcript.facts.tokens.input === before)
      await new Promise((r) => setImmediate(r));
    lat.push(performance.now() - tw);
    await new Promise((r) => setTimeout(r, 30));
  }
  const c1 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, idle * 1000));
  const c2 = process.cpuUsage(c1);
  console.log(
    JSON.stringify({
      inProcess: {
        firstReadOfAllTranscripts: firstRead,
        appendToSnapshotMs: {
          p50: +pct(lat, 50).toFixed(1),
          p95: +pct(lat, 95).toFixed(1),
          max: +Math.max(...lat).toFixed(1),
        },
        idleCpuPct: +(((c2.user + c2.system) / 1000 / (idle * 1000)) * 100).toFixed(3),
      },
    }),
  );
  await store.close();
}
