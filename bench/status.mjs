// `omc-top status --tmux` the way tmux runs it: a fresh process per call, one read, no watcher.
// Wall time from spawn to exit, at 200 (real-OMC tree) and 2,000 generated sessions.
//   node bench/status.mjs [--rounds 15]
import { execFileSync } from 'node:child_process';
import { BIN, generatedTree, now, pct, tree200 } from './lib.mjs';

const i = process.argv.indexOf('--rounds');
const ROUNDS = i === -1 ? 15 : Number(process.argv[i + 1]);
const trees = { 200: tree200(), 2000: generatedTree(2000) };
try {
  for (const [n, tree] of Object.entries(trees)) {
    const times = [];
    let line = '';
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = now();
      line = execFileSync(process.execPath, [BIN, 'status', '--tmux', '--root', tree.root], { encoding: 'utf8' });
      times.push(now() - t0);
    }
    console.log(
      `${n} sessions: median ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms  (${line.trim()})`,
    );
  }
} finally {
  for (const t of Object.values(trees)) t.cleanup();
}
