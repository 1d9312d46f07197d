// Idle cost: start omc-top on a tree, let start-up settle, then measure CPU and
// bytes written over a long quiet window (nothing changes on disk).
//   node bench/idle.mjs [--settle 15] [--seconds 60] [--sizes 200,2000] [--viewports 80x24,200x60] [--bin dist/omc-top.mjs]
//                       [--no-crossing]
// --bin runs another build (e.g. the base commit's, bundled elsewhere) so two builds can be measured side by side.
// --no-crossing: the generated trees' sessions are packed so the oldest is 100 min old, so none crosses OMC's 2 h
// stale line during the run (the default tree, 1 s apart, has one crossing every second from 7,200 sessions up).
import path from 'node:path';
import { BIN, generatedTree, procStats, sleep, startMonitor, tree200 } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const SETTLE = arg('settle', 15);
const SECONDS = arg('seconds', 60);
const i = process.argv.indexOf('--sizes');
const SIZES = (i === -1 ? '200,2000' : process.argv[i + 1]).split(',').map(Number);
const v = process.argv.indexOf('--viewports');
const b = process.argv.indexOf('--bin');
const bin = b === -1 ? BIN : path.resolve(process.argv[b + 1]);
const NO_CROSSING = process.argv.includes('--no-crossing');
// Newest 10 min old (generatedTree), oldest at most 100 min: 20 min before the first would turn stale.
const spacingOf = (n) => (NO_CROSSING ? Math.min(1000, Math.floor((90 * 60_000) / Math.max(1, n - 1))) : 1000);
const VIEWPORTS = (v === -1 ? '80x24,200x60' : process.argv[v + 1]).split(',').map((x) => x.split('x').map(Number));

for (const [label, make] of SIZES.map((n) =>
  n === 200
    ? ['200 sessions (real OMC load tree)', tree200]
    : [
        `${n} sessions (generated${NO_CROSSING ? ', none crossing the 2 h line' : ''})`,
        () => generatedTree(n, { spacingMs: spacingOf(n) }),
      ],
)) {
  for (const [cols, rows] of VIEWPORTS) {
    const tree = make();
    const m = startMonitor({ args: ['--root', tree.root], cols, rows, bin });
    try {
      await m.waitScreen(/ live\s*$/m, 180_000);
      await sleep(SETTLE * 1000);
      const s0 = procStats(m.pid);
      const c0 = m.chunks.length;
      await sleep(SECONDS * 1000);
      const s1 = procStats(m.pid);
      const bytes = m.chunks.slice(c0).reduce((n, c) => n + c.d.length, 0);
      console.log(
        JSON.stringify({
          tree: label,
          ...(b === -1 ? {} : { bin }),
          viewport: `${cols}x${rows}`,
          settleSeconds: SETTLE,
          seconds: SECONDS,
          idleCpuPct: +(((s1.cpuMs - s0.cpuMs) / (SECONDS * 1000)) * 100).toFixed(3),
          frames: m.chunks.slice(c0).filter((c) => c.d.includes('\u001b[?2026h')).length,
          bytesPerSecond: Math.round(bytes / SECONDS),
          rssMb: Math.round(s1.rssMb),
        }),
      );
    } finally {
      m.kill();
      tree.cleanup();
    }
  }
}
