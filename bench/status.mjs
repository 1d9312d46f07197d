// `omc-top status --tmux` the way tmux runs it: a fresh process per call. CPU (user+sys, the child's own) and
// wall time per call beside a bare `node -e 0` measured in the same rounds (interleaved, so a loaded machine
// loads both alike), at 200 (real-OMC tree), 2,000 and 10,000 generated sessions:
//   cached  a monitor (`omc-top watch --json`) runs on the root: the line comes from its status cache
//   fresh   no monitor: the line is computed from the files (sessions, teams, Claude Code's registry)
//   --cwd   cached, found from a git work tree the way the README's tmux line asks (`--cwd DIR`)
// plus `--version`. Ratios are CPU over node -e 0's median.
//   node bench/status.mjs [--rounds 15] [--sizes 200,2000,10000]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, generatedTree, machine, pct, sleep, tree200 } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : process.argv[i + 1];
};
const ROUNDS = Number(arg('--rounds', '15'));
const SIZES = arg('--sizes', '200,2000,10000').split(',').map(Number);

/** One call's wall and CPU (ms), from bash's `time` (it reports the child's user and sys time). */
function timed(argv, env) {
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >/dev/null; } 2>&1', '_', ...argv], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const m = /(\d+\.\d+) (\d+\.\d+) (\d+\.\d+)\s*$/.exec(r.stdout);
  if (!m) throw new Error(`no timing from ${argv.join(' ')}: ${r.stdout} ${r.stderr}`);
  return { wall: Number(m[1]) * 1000, cpu: (Number(m[2]) + Number(m[3])) * 1000 };
}

async function monitorOn(root, env) {
  const child = spawn(process.execPath, [BIN, 'watch', '--json', '--root', root], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  const dir = path.join(env.XDG_STATE_HOME, 'omc-top');
  const deadline = Date.now() + 300_000;
  while (!(fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.startsWith('status-')))) {
    if (Date.now() > deadline) throw new Error('the monitor wrote no status cache in 300 s');
    await sleep(200);
  }
  return () => child.kill('SIGTERM');
}

const fmt = (xs) => `${pct(xs, 50).toFixed(0)} ms (p95 ${pct(xs, 95).toFixed(0)})`;

console.log(JSON.stringify(machine()));
const version = { base: [], cpu: [] };
for (const n of SIZES) {
  const tree = n === 200 ? tree200() : generatedTree(n);
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-state-'));
  const env = {
    XDG_STATE_HOME: state,
    CLAUDE_CONFIG_DIR: path.join(state, 'no-claude'),
  };
  // A git work tree whose .omc is the tree's (the README's `--cwd "#{pane_current_path}"`).
  const work = path.dirname(tree.root);
  execFileSync('git', ['init', '-q', work]);
  const rows = { base: [], cached: [], fresh: [], cwd: [] };
  const walls = { base: [], cached: [], fresh: [], cwd: [] };
  const record = (k, t) => {
    rows[k].push(t.cpu);
    walls[k].push(t.wall);
  };
  let stop = () => undefined;
  try {
    // Fresh first (no monitor yet), then the same rounds with a monitor's cache.
    for (let r = 0; r < ROUNDS; r++) {
      const b = timed([process.execPath, '-e', '0'], env);
      const f = timed([process.execPath, BIN, 'status', '--tmux', '--root', tree.root], env);
      record('base', b);
      record('fresh', f);
      if (n === SIZES[0]) {
        version.base.push(b.cpu);
        version.cpu.push(timed([process.execPath, BIN, '--version'], env).cpu);
      }
    }
    stop = await monitorOn(tree.root, env);
    for (let r = 0; r < ROUNDS; r++) {
      const b = timed([process.execPath, '-e', '0'], env);
      const c = timed([process.execPath, BIN, 'status', '--tmux', '--root', tree.root], env);
      const w = timed([process.execPath, BIN, 'status', '--tmux', '--cwd', work], env);
      record('base', b);
      record('cached', c);
      record('cwd', w);
    }
    const base = pct(rows.base, 50);
    const line = (label, k) =>
      `  ${label.padEnd(8)} cpu ${fmt(rows[k])}  wall ${fmt(walls[k])}  ×${(pct(rows[k], 50) / base).toFixed(2)} of node -e 0`;
    console.log(`${n.toLocaleString('en-US')} sessions (${ROUNDS} rounds each):`);
    console.log(line('node -e 0', 'base').replace(/ ×.*$/, ''));
    console.log(line('cached', 'cached'));
    console.log(line('--cwd', 'cwd'));
    console.log(line('fresh', 'fresh'));
  } finally {
    stop();
    tree.cleanup();
    fs.rmSync(state, { recursive: true, force: true });
  }
}
if (version.cpu.length > 0)
  console.log(
    `--version: cpu ${fmt(version.cpu)}  ×${(pct(version.cpu, 50) / pct(version.base, 50)).toFixed(2)} of node -e 0`,
  );
