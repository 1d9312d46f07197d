// The Sessions `/` filter with a word an age may hold ("5h", or a session id made of age characters, as the peers
// bench types): such a filter is judged again at every frame's clock, over every row its other words keep. This times
// `visibleSessions` (panes/sessions/reducer.ts) over generated rows, each call at a new clock as each change's frame
// brings, in process.
//   node --import tsx bench/filter-age.mts [--src DIR] [--rows 10000] [--filter 00001] [--frames 40]
// --src: the checkout whose reducer is timed (a base commit's source for a before/after pair; default this one).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : (process.argv[i + 1] ?? dflt);
};
const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(arg('src', path.join(here, '..')));
const N = Number(arg('rows', '10000'));
const FILTER = arg('filter', '00001');
const FRAMES = Number(arg('frames', '40'));
const mod = (await import(pathToFileURL(path.join(src, 'src/panes/sessions/reducer.ts')).href)) as {
  visibleSessions: (snap: unknown, q: { filter: string }, now: number) => unknown[];
};

const sessions = Array.from({ length: N }, (_, i) => ({
  id: `${String(i).padStart(8, '0')}-1111-4222-8333-444455556666`,
  kind: 'session',
  status: 'active',
  updatedMs: Date.now() - i * 1000,
  rank: 3,
  modes: [
    {
      mode: 'ralph',
      status: 'running',
      phase: null,
      prompt: `ralph: benchmark task number ${i}: make the checkout flow e2e tests pass`.padEnd(230, '.'),
      extras: ['3/10'],
      active: true,
      iteration: 3,
      max: 10,
    },
  ],
  cancel: null,
  problems: [],
}));
const snap = { version: 1, sessions, problems: [], derivedAt: 0 };
const times: number[] = [];
let kept = 0;
for (let k = 0; k < FRAMES; k++) {
  const t = performance.now();
  kept = mod.visibleSessions({ ...snap, version: k + 2 }, { filter: FILTER }, Date.now() + k * 1000).length;
  times.push(performance.now() - t);
}
// The first call builds every row's search text (once per row for the process's life): said apart, not in the
// percentiles of the frames after it.
const first = times.shift() as number;
times.sort((a, b) => a - b);
const pct = (p: number) =>
  (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] as number).toFixed(2);
console.log(
  JSON.stringify({
    src,
    rows: N,
    filter: FILTER,
    kept,
    frames: times.length,
    firstMs: +first.toFixed(2),
    p50Ms: +pct(50),
    p95Ms: +pct(95),
  }),
);
