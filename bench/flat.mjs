// Flat in N: the work of one change at 10,000 sessions against the same at 200, in one run, so the ratio holds on
// any host. The trees are generated in the same shape (bench/lib.mjs generatedTree: ralph + ultrawork per session,
// 1 s apart, so at 10,000 the oldest are past OMC's 2 h stale line and one crosses it every second); only N differs.
// For each size, interleaved over rounds (a fresh start each): start in a pty at 80x24, wait for `live`, settle, then
//   - CPU per change: 20 changes/s for `--sustain` s, spread over the sessions on screen; CPU of the omc-top
//     process (/proc) ÷ changes;
//   - change→screen: `--changes` isolated changes (50–150 ms apart) of a visible row, from the rename to the new
//     iteration in the terminal output; p50 / p95 over every round's changes.
// Prints one JSON line per size and build, then the ratio lines (each target beside its figures) and a table row.
//   node bench/flat.mjs [--sizes 200,10000] [--rounds 3] [--sustain 10] [--changes 60] [--settle 3]
//                       [--bins base=path/omc-top.mjs,new=dist/omc-top.mjs]
// `--bins`: builds measured alternately on the same trees (a before/after pair; the ratio new/base per figure).
import fs from 'node:fs';
import path from 'node:path';
import { BIN, generatedTree, machine, now, omcWrite, pct, procStats, sleep, startMonitor } from './lib.mjs';
import { hostLine, ratioLine } from './targets-lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const SIZES = String(arg('sizes', '200,10000')).split(',').map(Number);
const ROUNDS = Number(arg('rounds', '3'));
const SUSTAIN = Number(arg('sustain', '10'));
const CHANGES = Number(arg('changes', '60'));
const SETTLE = Number(arg('settle', '3'));
const BINS = String(arg('bins', `shipped=${BIN}`))
  .split(',')
  .map((b) => {
    const [label, file] = b.includes('=') ? b.split('=') : [path.basename(b), b];
    return { label, file: path.resolve(file) };
  });

const host = machine();
console.log(JSON.stringify({ machine: host }));

function bump(file, iteration) {
  const s = JSON.parse(fs.readFileSync(file, 'utf8'));
  omcWrite(file, { ...s, active: true, iteration, max_iterations: 999999, last_checked_at: new Date().toISOString() });
}

let marker = 100000;
async function oneStart(tree, bin) {
  const m = startMonitor({ args: ['--root', tree.root], cols: 80, rows: 24, bin: bin.file });
  try {
    await m.waitScreen(/ live\s*$/m, 300_000);
    await sleep(SETTLE * 1000);
    await m.settle();
    const dirs = fs.readdirSync(tree.sessions);
    const ids = [...new Set([...m.screen().matchAll(/\b([0-9a-f]{8})\b/g)].map((x) => x[1]))];
    const files = ids
      .map((h) => dirs.find((d) => d.startsWith(h)))
      .filter(Boolean)
      .map((d) => path.join(tree.sessions, d, 'ralph-state.json'))
      .slice(0, 8);
    // Each target written once first, so later writes change one row each and the rows stay put.
    for (const f of files) {
      const mark = m.chunks.length;
      bump(f, ++marker);
      await m.waitOutput(`${marker}/`, mark, 10_000);
    }
    await sleep(500);

    const c0 = procStats(m.pid);
    const t0 = now();
    const n = SUSTAIN * 20;
    for (let i = 0; i < n; i++) {
      bump(files[i % files.length], ++marker);
      const due = t0 + ((i + 1) * 1000) / 20;
      while (now() < due) await sleep(Math.max(1, due - now()));
    }
    const last = marker;
    await m.waitOutput(`${last}/`, 0, 10_000);
    const c1 = procStats(m.pid);
    const cpuPerChangeMs = (c1.cpuMs - c0.cpuMs) / n;
    await sleep(500);

    const lat = [];
    for (let i = 0; i < CHANGES; i++) {
      const mark = m.chunks.length;
      const v = ++marker;
      const tw = now();
      bump(files[i % files.length], v);
      const r = await m.waitOutput(`${v}/`, mark, 10_000);
      if (r) lat.push(r.t - tw);
      await sleep(50 + Math.random() * 100);
    }
    return { cpuPerChangeMs, lat, missed: CHANGES - lat.length };
  } finally {
    m.kill();
  }
}

const trees = SIZES.map((n) => {
  const t = generatedTree(n);
  return { ...t, n, sessions: path.join(t.root, 'state', 'sessions') };
});
const res = new Map();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const tree of round % 2 ? [...trees].reverse() : trees) {
      for (const bin of round % 2 ? [...BINS].reverse() : BINS) {
        const k = `${tree.n} ${bin.label}`;
        if (!res.has(k)) res.set(k, { n: tree.n, bin: bin.label, cpu: [], lat: [], missed: 0, errors: 0 });
        const r = res.get(k);
        try {
          const o = await oneStart(tree, bin);
          r.cpu.push(o.cpuPerChangeMs);
          r.lat.push(...o.lat);
          r.missed += o.missed;
        } catch (e) {
          r.errors += 1;
          console.error(String(e?.message ?? e).slice(0, 300));
        }
      }
    }
  }
} finally {
  for (const t of trees) t.cleanup();
}

const med = (xs) => (xs.length ? pct(xs, 50) : NaN);
const rows = [];
for (const r of res.values()) {
  const o = {
    sessions: r.n,
    bin: r.bin,
    rounds: r.cpu.length,
    errors: r.errors,
    cpuPerChangeMs: { median: +med(r.cpu).toFixed(2), runs: r.cpu.map((x) => +x.toFixed(2)) },
    changeToScreenMs: { p50: +pct(r.lat, 50).toFixed(1), p95: +pct(r.lat, 95).toFixed(1), n: r.lat.length },
    missed: r.missed,
  };
  rows.push(o);
  console.log(JSON.stringify(o));
}
const [small, big] = [Math.min(...SIZES), Math.max(...SIZES)];
for (const bin of BINS) {
  const a = rows.find((r) => r.sessions === small && r.bin === bin.label);
  const b = rows.find((r) => r.sessions === big && r.bin === bin.label);
  if (!a || !b) continue;
  const label = BINS.length > 1 ? ` [${bin.label}]` : '';
  console.log(
    ratioLine({
      target: `CPU per change at ${big.toLocaleString('en')} ÷ at ${small}${label}`,
      value: b.cpuPerChangeMs.median / a.cpuPerChangeMs.median,
      limit: 1.3,
      figures: `${b.cpuPerChangeMs.median} / ${a.cpuPerChangeMs.median} ms`,
    }),
  );
  console.log(
    ratioLine({
      target: `change→screen p95 at ${big.toLocaleString('en')} ÷ at ${small}${label}`,
      value: b.changeToScreenMs.p95 / a.changeToScreenMs.p95,
      limit: 1.3,
      figures: `${b.changeToScreenMs.p95} / ${a.changeToScreenMs.p95} ms`,
    }),
  );
}
if (BINS.length > 1) {
  const [base, next] = BINS;
  for (const n of SIZES) {
    const a = rows.find((r) => r.sessions === n && r.bin === base.label);
    const b = rows.find((r) => r.sessions === n && r.bin === next.label);
    if (!a || !b) continue;
    console.log(
      JSON.stringify({
        pair: `${next.label} ÷ ${base.label} at ${n}`,
        cpuPerChange: +(b.cpuPerChangeMs.median / a.cpuPerChangeMs.median).toFixed(2),
        changeToScreenP95: +(b.changeToScreenMs.p95 / a.changeToScreenMs.p95).toFixed(2),
      }),
    );
  }
}
console.log(hostLine(host));
process.exit(0);
