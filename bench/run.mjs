// `npm run bench`: the numbers recorded in BENCHMARKS.md, in one run.
//   node bench/run.mjs [--sizes 200,2000] [--viewports 80x24,200x60] [--changes 100] [--idle 20]
//                      [--sustain 10] [--no-peers] [--no-wiki] [--no-big-wiki]
// Not a test: it prints numbers (one JSON line each) for the machine it runs on.
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchMonitor } from './monitor.mjs';
import { generatedTree, machine, tree200 } from './lib.mjs';
import { generateWiki } from './wiki/generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const flag = (name) => process.argv.includes(`--${name}`);
const sizes = arg('sizes', '200,2000').split(',').map(Number);
const viewports = arg('viewports', '80x24,200x60')
  .split(',')
  .map((v) => v.split('x').map(Number));
const changes = Number(arg('changes', '100'));
const idle = Number(arg('idle', '20'));
const sustain = Number(arg('sustain', '10'));

console.log(JSON.stringify({ machine: machine() }));

async function one(label, tree, cols, rows) {
  try {
    const r = await benchMonitor({
      root: tree.root,
      label,
      cols,
      rows,
      changes,
      idleSeconds: idle,
      sustainSeconds: sustain,
    });
    console.log(JSON.stringify(r));
  } catch (e) {
    console.log(
      JSON.stringify({ tree: label, viewport: `${cols}x${rows}`, error: String(e?.message ?? e).slice(0, 500) }),
    );
  }
}

for (const n of sizes) {
  for (const [cols, rows] of viewports) {
    const tree = n === 200 ? tree200() : generatedTree(n);
    try {
      await one(
        n === 200 ? '200 sessions (real OMC load tree, 1,000 wiki pages)' : `${n} sessions (generated)`,
        tree,
        cols,
        rows,
      );
    } finally {
      tree.cleanup();
    }
  }
}

if (!flag('no-big-wiki')) {
  // The largest case: 2,000 sessions and a 5,000-page wiki in the same .omc.
  const tree = generatedTree(2000);
  generateWiki(path.join(tree.root, 'wiki'), 5000);
  try {
    await one('2,000 sessions + 5,000 wiki pages (generated)', tree, 80, 24);
  } finally {
    tree.cleanup();
  }
}

if (!flag('no-peers'))
  spawnSync(process.execPath, [path.join(here, 'peers.mjs'), '--changes', '20', '--idle', String(idle)], {
    stdio: 'inherit',
  });
if (!flag('no-wiki')) spawnSync(process.execPath, [path.join(here, 'wiki-search.mjs'), '--json'], { stdio: 'inherit' });
