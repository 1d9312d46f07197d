// Paired starts to live, timed by the CPU the process has used when the bare `live` footer shows (utime + stime from
// /proc, 10 ms ticks) beside the wall time. On this shared 2-core host the wall time to live of the same pair swings
// 0.6–1.2× from run to run with the other work on the machine; the CPU a start spends is far less moved by it, so
// a change in the work done before live shows here first. (It still counts V8's GC helper threads, and a loaded
// machine inflates it a little: compare builds inside one run only.)
//   node bench/cpu-at-live.mjs [--rounds 10] [--size 2000+5000] --bins base=path/omc-top.mjs,new=path/omc-top.mjs
// - one tree (and wiki) for all starts; each build its own XDG_CACHE_HOME, warmed by one untimed start held 8 s
//   after live (its full code cache written);
// - each round starts every build once, the order flipped every other round;
// - prints per build the p50 of wall and CPU at live, every sample, and with two builds the per-round CPU ratio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatedTree, procStats, sleep, startMonitor } from './lib.mjs';
import { generateWiki } from './wiki/generate.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const ROUNDS = Number(arg('rounds', '10'));
const [N, PAGES] = String(arg('size', '2000+5000')).split('+').map(Number);
const bins = String(arg('bins', ''))
  .split(',')
  .filter(Boolean)
  .map((b) => {
    const [label, file] = b.split('=');
    const xdg = fs.mkdtempSync(path.join(os.tmpdir(), `omc-top-cpu-live-${label}-`));
    return { label, file: path.resolve(file), xdg, wall: [], cpu: [] };
  });
if (bins.length === 0) throw new Error('--bins label=path[,label2=path2] is required');

const tree = generatedTree(N);
if (PAGES) generateWiki(path.join(tree.root, 'wiki'), PAGES);
const startToLive = async (b) => {
  const m = startMonitor({
    args: ['--root', tree.root],
    cols: 80,
    rows: 24,
    bin: b.file,
    env: { XDG_CACHE_HOME: b.xdg },
  });
  const t0 = performance.now();
  await m.waitScreen(/ live\s*$/m, 180_000);
  const wall = performance.now() - t0;
  return { m, wall, cpuMs: procStats(m.pid).cpuMs };
};
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const loads = [os.loadavg()[0]];
try {
  for (const b of bins) {
    const warm = await startToLive(b);
    await sleep(8000);
    warm.m.kill();
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const b of r % 2 ? [...bins].reverse() : bins) {
      const s = await startToLive(b);
      s.m.kill();
      b.wall.push(s.wall);
      b.cpu.push(s.cpuMs);
      await sleep(500);
    }
    loads.push(os.loadavg()[0]);
  }
} finally {
  tree.cleanup();
  for (const b of bins) fs.rmSync(b.xdg, { recursive: true, force: true });
}
const ms = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
for (const b of bins)
  console.log(
    `${b.label}: wall p50 ${median(b.wall).toFixed(0)} ms, CPU at live p50 ${median(b.cpu).toFixed(0)} ms; wall ${ms(b.wall)}; CPU ${ms(b.cpu)}`,
  );
if (bins.length === 2) {
  const ratio = bins[1].cpu.map((c, i) => c / bins[0].cpu[i]);
  console.log(
    `${bins[1].label} ÷ ${bins[0].label} CPU at live per round: ${ratio.map((x) => x.toFixed(2)).join(' ')}; median ${median(ratio).toFixed(3)}`,
  );
}
console.log(`${N}+${PAGES || 0}, load (1 min) per round: ${loads.map((l) => l.toFixed(1)).join(' ')}`);
