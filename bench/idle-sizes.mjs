// Idle at rest by tree size: a monitor on the generated 200-session tree and one on the 10,000-session tree (the
// same shape as bench/flat.mjs's), both running at once, each in a pty at 80x24; CPU per second over one window from
// `--settle` s after both are live, split into the main thread and the rest (V8's helper threads, libuv's pool), from
// each thread's schedstat. In the 10,000 tree one session crosses OMC's 2-hour stale line every second (a verdict
// that changes with no file written), so this is what flat.mjs's CPU per change at 10,000 carries beside the change.
//   node bench/idle-sizes.mjs [--sizes 200,10000] [--seconds 30] [--settle 15] [--bin dist/omc-top.mjs]
import fs from 'node:fs';
import path from 'node:path';
import { BIN, generatedTree, machine, sleep, startMonitor } from './lib.mjs';
import { hostLine } from './targets-lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const SIZES = String(arg('sizes', '200,10000')).split(',').map(Number);
const SECONDS = Number(arg('seconds', '30'));
const SETTLE = Number(arg('settle', '15'));
const bin = path.resolve(arg('bin', BIN));

/** CPU ms so far of the main thread and of every other thread of `pid`. */
function threads(pid) {
  const out = { main: 0, other: 0 };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const ms = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      if (tid === String(pid)) out.main += ms;
      else out.other += ms;
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return out;
}

const host = machine();
console.log(JSON.stringify({ machine: host }));
const arms = SIZES.map((n) => {
  const t = generatedTree(n);
  return { n, t, m: startMonitor({ args: ['--root', t.root], cols: 80, rows: 24, bin }) };
});
try {
  for (const a of arms) await a.m.waitScreen(/ live\s*$/m, 300_000);
  await sleep(SETTLE * 1000);
  const s0 = arms.map((a) => threads(a.m.pid));
  await sleep(SECONDS * 1000);
  arms.forEach((a, i) => {
    const s1 = threads(a.m.pid);
    const main = (s1.main - s0[i].main) / SECONDS;
    const other = (s1.other - s0[i].other) / SECONDS;
    console.log(
      JSON.stringify({
        sessions: a.n,
        cpuMsPerS: +(main + other).toFixed(2),
        mainMsPerS: +main.toFixed(2),
        otherMsPerS: +other.toFixed(2),
      }),
    );
  });
} finally {
  for (const a of arms) {
    a.m.kill();
    a.t.cleanup();
  }
}
console.log(hostLine(host));
