// Time to first frame and to "live", over many interleaved starts (one start
// alone is too noisy on a shared machine), with the young-generation setting
// as shipped and with V8's default, to show what that setting costs.
//   node bench/startup.mjs [--rounds 12]
import { generatedTree, pct, sleep, startMonitor, tree200 } from './lib.mjs';

const i = process.argv.indexOf('--rounds');
const ROUNDS = i === -1 ? 12 : Number(process.argv[i + 1]);
const trees = { 200: tree200(), 2000: generatedTree(2000) };
const res = {};
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [n, cols, rows] of [
      [200, 80, 24],
      [2000, 80, 24],
      [200, 200, 60],
    ]) {
      // Passing any semi-space flag makes omc-top keep V8's default (src/terminal/young-gen.ts).
      const configs = [
        ['as shipped', []],
        ['young generation at V8 default', ['--semi-space-growth-factor=2']],
      ];
      if (round % 2) configs.reverse();
      for (const [label, nodeArgs] of configs) {
        const m = startMonitor({ args: ['--root', trees[n].root], cols, rows, nodeArgs });
        try {
          const ff = (await m.waitScreen(/STATUS\s+SESSION[\s\S]*[0-9a-f]{8}/)) - m.spawnedAt;
          const live = (await m.waitScreen(/ live\s*$/m, 30_000)) - m.spawnedAt;
          const k = `${n} sessions ${cols}x${rows}, ${label}`;
          res[k] ??= { ff: [], live: [] };
          res[k].ff.push(ff);
          res[k].live.push(live);
        } finally {
          m.kill();
        }
        await sleep(300);
      }
    }
  }
} finally {
  for (const t of Object.values(trees)) t.cleanup();
}
for (const [k, v] of Object.entries(res)) {
  const q = (xs) => Object.fromEntries([25, 50, 75, 95].map((p) => [`p${p}`, Math.round(pct(xs, p))]));
  console.log(JSON.stringify({ config: k, starts: v.ff.length, firstFrameMs: q(v.ff), liveMs: q(v.live) }));
}
process.exit(0);
