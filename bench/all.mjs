// Every issue-30 target in one command, for BENCHMARKS.md's current table: builds the bundle, runs each target's
// bench in turn (one at a time: they would load each other), and prints the table rows they print (each target as
// its ratio beside the absolute figures, met or not, and the command that reproduces it), then each bench's host
// line. Every bench's full output (JSON lines) goes to `--out DIR` (default .bench-tmp/all/<date>/).
//   npm run bench:all                      # about an hour on 2 cores
//   node bench/all.mjs [--only flat,claude-idle,fleet,startup,first-frame,keys,peers,status] [--out DIR]
// Ratios are measured inside one run of one script (both sides interleaved or back to back), so they hold on a
// loaded machine better than the absolute figures; still, run it on a quiet machine for the record.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildAll } from '../scripts/build.mjs';
import { REPO, machine } from './lib.mjs';
import { hostLine } from './targets-lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};

/** The benches and the arguments the current table is taken with. */
const BENCHES = [
  { key: 'flat', argv: ['bench/flat.mjs', '--sizes', '200,10000', '--rounds', '3'] },
  { key: 'claude-idle', argv: ['bench/claude-idle.mjs', '--rounds', '4', '--seconds', '60', '--rest', '120'] },
  { key: 'fleet', argv: ['--import', 'tsx', 'bench/fleet.mjs', '--local-only', '--idle', '30', '--changes', '200'] },
  { key: 'first-frame', argv: ['bench/startup.mjs', '--first-frame-only', '--rounds', '20', '--sizes', '200,2000'] },
  {
    key: 'startup',
    argv: ['bench/startup.mjs', '--rounds', '5', '--sizes', '2000+5000,10000+5000', '--viewports', '80x24'],
  },
  {
    key: 'keys',
    argv: ['bench/keys.mjs', '--sessions', '2000:80x24,2000:200x60', '--wiki', '5000:80x24,20000:80x24'],
  },
  { key: 'peers', argv: ['bench/peers.mjs', '--trees', '200,2000,10000', '--no-poll', '--changes', '20'] },
  // Issue 24's (`status --tmux` and `--version` against `node -e 0`): its own lines, not table rows yet.
  { key: 'status', argv: ['bench/status.mjs', '--rounds', '15'] },
];

const only = arg('only', null)?.split(',');
const chosen = only ? BENCHES.filter((b) => only.includes(b.key)) : BENCHES;
const host = machine();
const out = path.resolve(arg('out', path.join(REPO, '.bench-tmp', 'all', host.date.replace(/[:.]/g, '-'))));
fs.mkdirSync(out, { recursive: true });
// The shipped build: the bin (src/entry.ts) and the bundles it loads, exactly as `npm run build` makes them (a
// single bundle of cli.tsx at the bin's path would measure neither the small bin nor the app's code cache).
await buildAll();

function run(b) {
  return new Promise((resolve) => {
    const log = fs.createWriteStream(path.join(out, `${b.key}.txt`));
    const child = spawn(process.execPath, b.argv, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      log.write(d);
    });
    child.stderr.on('data', (d) => log.write(d));
    child.on('close', (code) => {
      log.end();
      resolve({ code, text });
    });
  });
}

const rows = [];
const hosts = [];
const verbatim = [];
for (const b of chosen) {
  const t0 = Date.now();
  console.error(`${new Date().toISOString()} ${b.key}: node ${b.argv.join(' ')}`);
  const r = await run(b);
  const lines = r.text.split('\n');
  const mine = lines.filter((l) => l.startsWith('| '));
  rows.push(...mine);
  hosts.push(...lines.filter((l) => l.startsWith('host: ')).map((l) => `${b.key}: ${l.slice(6)}`));
  if (!mine.length) verbatim.push(`${b.key} (exit ${r.code}):`, ...lines.filter((l) => l && !l.startsWith('{')));
  console.error(`  ${mine.length} rows, exit ${r.code}, ${Math.round((Date.now() - t0) / 1000)} s`);
}

console.log('| target | measured | limit | absolute figures | | command |');
console.log('|---|---:|---:|---|---|---|');
for (const r of rows) console.log(r);
console.log();
for (const h of hosts) console.log(`- ${h}`);
if (verbatim.length) console.log(['', ...verbatim].join('\n'));
console.log(`\n${hostLine(host)}\nfull output: ${path.relative(REPO, out)}/`);
process.exit(0);
