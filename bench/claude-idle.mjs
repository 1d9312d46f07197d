// Idle with Claude Code's data against idle without, in one run: the 200-session real OMC tree, omc-top in a pty at
// 80x24, and in turn (interleaved over rounds, a fresh start each)
//   none         no Claude data (an empty CLAUDE_CONFIG_DIR);
//   registry     a live registry entry per session (a real sleeping process each: pid + procStart hold);
//   transcripts  the same and a `--mb` MB transcript per session.
// Each round starts one monitor per kind and build (an "arm"), in turn, each waited for until `live`; then waits
// until every transcript has been read (a `--quiet`-second stretch in which every arm stays under 1 % of a core, at
// most 300 s), then measures `--seconds` of idle for all arms over the same window: CPU of each omc-top process (the
// sum of its threads' schedstat, in ns), frames and bytes written. Target: idle with Claude data ≤ 1.5 × idle without.
// Corrected on 2026-12-03 (fleet35), because one build gave 0.083–0.317 % for "none" and ratios of 1.2–2.0× from one
// run to the next: CPU was read from /proc/<pid>/stat in 10 ms ticks (0.083 % over 60 s is 5 ticks, so one tick
// moved the ratio by 20 %), and the kinds ran one after the other ~90 s apart, so the other processes' load and
// V8's own collections fell on one kind's window and not the other's. Now CPU is in ns and the arms share one
// window. Older ratios of this bench are not comparable.
// Corrected again on 2026-12-03 (afternoon, tx36's traces): every omc-top process, Claude data or not, runs V8's
// memory reducer once in its life (armed by its first full collection at start-up; it collects when a reducer tick,
// every 8 s, first reads a low allocation rate; V8's watchdog is 100 s). That one collection (50–110 ms of CPU)
// fell in the 60 s window right after the catch-up for the transcripts arm (its catch-up keeps the rate high for
// ~25 s) and, in some rounds, for the none arm too: the row measured where a once-per-process event fell, not idle.
// So each round now measures two windows: the first `--seconds` after the quiet stretch (printed, "first minute
// after start-up's read", not a target), and the same length from `--rest` seconds after it, past V8's watchdog,
// when every arm has paid its one collection: idle at rest, the target.
//   node bench/claude-idle.mjs [--rounds 2] [--seconds 60] [--rest 120] [--quiet 5] [--mb 10]
//                              [--kinds none,registry,transcripts] [--bins base=path/omc-top.mjs,new=dist/omc-top.mjs]
import path from 'node:path';
import { BIN, cpuMs, machine, pct, procStats, sleep, startMonitor, tree200 } from './lib.mjs';
import { claudeData } from './claude/data.mjs';
import { hostLine, ratioLine } from './targets-lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const ROUNDS = Number(arg('rounds', '2'));
const SECONDS = Number(arg('seconds', '60'));
const QUIET = Number(arg('quiet', '5'));
const REST = Number(arg('rest', '120'));
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

/** One arm: omc-top on the tree with one kind of Claude data, started and waited for until live. */
async function startArm(tree, data, kind, bin) {
  const m = startMonitor({
    args: ['--root', tree.root],
    cols: 80,
    rows: 24,
    bin: bin.file,
    env: { CLAUDE_CONFIG_DIR: data.dir },
  });
  try {
    await m.waitScreen(/ live\s*$/m, 300_000);
    return { kind, bin, m };
  } catch (e) {
    m.kill();
    throw e;
  }
}

/** Waits for a stretch of QUIET seconds in which every arm stays under 1 % of a core (the transcripts' first read is over). */
async function settled(arms) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const a = arms.map((x) => cpuMs(x.m.pid));
    await sleep(QUIET * 1000);
    const quiet = arms.every((x, i) => (cpuMs(x.m.pid) - a[i]) / (QUIET * 1000) < 0.01);
    if (quiet || Date.now() > deadline) return;
  }
}

/** Idle of every arm over one window of SECONDS: CPU, frames and bytes written, RSS at its end. */
async function idleWindow(arms) {
  const c0 = arms.map((x) => ({ cpu: cpuMs(x.m.pid), chunk: x.m.chunks.length }));
  await sleep(SECONDS * 1000);
  return arms.map((x, i) => {
    const out = x.m.chunks.slice(c0[i].chunk);
    return {
      cpuPct: ((cpuMs(x.m.pid) - c0[i].cpu) / (SECONDS * 1000)) * 100,
      frames: out.filter((c) => c.d.includes('\u001b[?2026h')).length,
      bytesPerSec: out.reduce((n, c) => n + c.d.length, 0) / SECONDS,
      rssMb: procStats(x.m.pid).rssMb,
    };
  });
}

/** One round: every arm started in turn, then idle measured for all of them over one window right after the
 * catch-up went quiet and one at rest (REST seconds after it). */
async function oneRound(tree, round) {
  const arms = [];
  try {
    for (const kind of round % 2 ? [...KINDS].reverse() : KINDS)
      for (const bin of round % 2 ? [...BINS].reverse() : BINS) {
        try {
          arms.push(await startArm(tree, data.get(kind), kind, bin));
        } catch (e) {
          console.error(String(e?.message ?? e).slice(0, 300));
        }
      }
    await settled(arms);
    const quietAt = Date.now();
    const first = await idleWindow(arms);
    await sleep(Math.max(0, quietAt + REST * 1000 - Date.now()));
    const rest = await idleWindow(arms);
    return arms.map((x, i) => ({ kind: x.kind, bin: x.bin, ...rest[i], firstCpuPct: first[i].cpuPct }));
  } finally {
    for (const x of arms) x.m.kill();
  }
}

const tree = tree200();
const data = new Map();
const res = new Map();
try {
  for (const k of KINDS) data.set(k, claudeData(tree, k, MB));
  for (let round = 0; round < ROUNDS; round++) {
    for (const run of await oneRound(tree, round)) {
      const key = `${run.kind} ${run.bin.label}`;
      if (!res.has(key)) res.set(key, { kind: run.kind, bin: run.bin.label, runs: [] });
      res.get(key).runs.push(run);
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
    restFrom: REST,
    idleCpuPct: { median: +med(r.runs.map((x) => x.cpuPct)).toFixed(4), runs: r.runs.map((x) => +x.cpuPct.toFixed(4)) },
    firstMinuteCpuPct: {
      median: +med(r.runs.map((x) => x.firstCpuPct)).toFixed(4),
      runs: r.runs.map((x) => +x.firstCpuPct.toFixed(4)),
    },
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
        figures: `${r.idleCpuPct.median} / ${none.idleCpuPct.median} % of a core over ${SECONDS} s from ${REST} s after the read went quiet`,
      }),
    );
    const f = r.firstMinuteCpuPct.median / none.firstMinuteCpuPct.median;
    console.log(
      `first ${SECONDS} s after the read went quiet (not a target: V8's one reducing collection per process may fall in it), ${kind}${BINS.length > 1 ? ` [${bin.label}]` : ''}: ${f.toFixed(2)}× (${r.firstMinuteCpuPct.median} / ${none.firstMinuteCpuPct.median} %)`,
    );
  }
}
console.log(hostLine(host));
process.exit(0);
