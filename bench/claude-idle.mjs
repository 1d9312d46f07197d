// Idle with Claude Code's data against idle without, in one run: the 200-session real OMC tree, omc-top in a pty at
// 80x24, and in turn (interleaved over rounds, a fresh start each)
//   none         no Claude data (an empty CLAUDE_CONFIG_DIR);
//   registry     a live registry entry per session (a real sleeping process each: pid + procStart hold);
//   transcripts  the same and a `--mb` MB transcript per session.
// After `live`, each start waits until every transcript has been read (a `--quiet`-second stretch under 1 % of a
// core, at most 300 s), then measures `--seconds` of idle: CPU of the omc-top process (/proc; 10 ms ticks, so give
// it a long window), frames and bytes written. Target: idle with Claude data ≤ 1.5 × idle without.
//   node bench/claude-idle.mjs [--rounds 2] [--seconds 60] [--quiet 5] [--mb 10] [--kinds none,registry,transcripts]
//                              [--bins base=path/omc-top.mjs,new=dist/omc-top.mjs]
import path from 'node:path';
import { BIN, machine, pct, procStats, sleep, startMonitor, tree200 } from './lib.mjs';
import { claudeData } from './claude/data.mjs';
import { hostLine, ratioLine } from './targets-lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const ROUNDS = Number(arg('rounds', '2'));
const SECONDS = Number(arg('seconds', '60'));
const QUIET = Number(arg('quiet', '5'));
const MB = Number(arg('mb', '10'));
const KINDS = String(arg('kinds', 'none,registry,transcripts')).split(',');
const BINS = String(arg('bins', `shipped=${BIN}`))
  .split(',')
  .map((b) => {
    const [label, file] = b.includes('=') ? b.split('=') : [path.basename(b), b];
    return { label, file: path.resolve(file) };
  });

const host = machine();
console.log(JSON.stringify({ machine: host }));

async function oneStart(tree, data, bin) {
  const m = startMonitor({
    args: ['--root', tree.root],
    cols: 80,
    rows: 24,
    bin: bin.file,
    env: { CLAUDE_CONFIG_DIR: data.dir },
  });
  try {
    await m.waitScreen(/ live\s*$/m, 300_000);
    // Settled: a stretch of QUIET seconds under 1 % of a core (the transcripts' first read is over).
    const deadline = Date.now() + 300_000;
    for (;;) {
      const a = procStats(m.pid);
      await sleep(QUIET * 1000);
      const b = procStats(m.pid);
      if ((b.cpuMs - a.cpuMs) / (QUIET * 1000) < 0.01 || Date.now() > deadline) break;
    }
    const s0 = procStats(m.pid);
    const c0 = m.chunks.length;
    await sleep(SECONDS * 1000);
    const s1 = procStats(m.pid);
    const out = m.chunks.slice(c0);
    return {
      cpuPct: ((s1.cpuMs - s0.cpuMs) / (SECONDS * 1000)) * 100,
      frames: out.filter((c) => c.d.includes('\u001b[?2026h')).length,
      bytesPerSec: out.reduce((n, c) => n + c.d.length, 0) / SECONDS,
      rssMb: s1.rssMb,
    };
  } finally {
    m.kill();
  }
}

const tree = tree200();
const data = new Map();
const res = new Map();
try {
  for (const k of KINDS) data.set(k, claudeData(tree, k, MB));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 ? [...KINDS].reverse() : KINDS) {
      for (const bin of round % 2 ? [...BINS].reverse() : BINS) {
        const key = `${kind} ${bin.label}`;
        if (!res.has(key)) res.set(key, { kind, bin: bin.label, runs: [] });
        try {
          res.get(key).runs.push(await oneStart(tree, data.get(kind), bin));
        } catch (e) {
          console.error(String(e?.message ?? e).slice(0, 300));
        }
      }
    }
  }
} finally {
  for (const d of data.values()) d.cleanup();
  tree.cleanup();
}

const med = (xs) => (xs.length ? pct(xs, 50) : NaN);
const rows = [];
for (const r of res.values()) {
  const o = {
    claude: r.kind,
    bin: r.bin,
    seconds: SECONDS,
    idleCpuPct: { median: +med(r.runs.map((x) => x.cpuPct)).toFixed(3), runs: r.runs.map((x) => +x.cpuPct.toFixed(3)) },
    frames: r.runs.map((x) => x.frames),
    bytesPerSec: Math.round(med(r.runs.map((x) => x.bytesPerSec))),
    rssMb: Math.round(med(r.runs.map((x) => x.rssMb))),
  };
  rows.push(o);
  console.log(JSON.stringify(o));
}
for (const bin of BINS) {
  const none = rows.find((r) => r.claude === 'none' && r.bin === bin.label);
  for (const kind of KINDS.filter((k) => k !== 'none')) {
    const r = rows.find((x) => x.claude === kind && x.bin === bin.label);
    if (!none || !r) continue;
    const what = kind === 'registry' ? 'a live registry entry each' : `a registry entry + ${MB} MB transcript each`;
    console.log(
      ratioLine({
        target: `idle, 200 sessions with ${what} ÷ without Claude data${BINS.length > 1 ? ` [${bin.label}]` : ''}`,
        value: r.idleCpuPct.median / none.idleCpuPct.median,
        limit: 1.5,
        figures: `${r.idleCpuPct.median} / ${none.idleCpuPct.median} % of a core over ${SECONDS} s`,
      }),
    );
  }
}
console.log(hostLine(host));
process.exit(0);
