// Time to live read apart, for the redesign a 2× start needs (BENCHMARKS.md, 2026-12-06 morning): the monitor's
// time to live and the floor (bench/baseline/read-tree.mjs) on trees that hold only sessions, only wiki pages, both,
// and almost nothing (the app's own start), then what a start could not skip even if it read no file: the same tree
// listed with every file only `stat`ed, and with an `fs.watch` per directory as well (each in a fresh Node, timed
// inside it, so Node's own start is left out of both; the floor's figure here is the same walk reading and parsing).
//   node bench/start-parts.mjs [--rounds 5] [--trees 1+0,2000+0,1+5000,2000+5000] [--bin dist/omc-top.mjs]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, REPO, generatedTree, machine, pct, sleep, startMonitor } from './lib.mjs';
import { generateWiki } from './wiki/generate.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const ROUNDS = Number(arg('rounds', '5'));
const TREES = String(arg('trees', '1+0,2000+0,1+5000,2000+5000')).split(',');
const bin = path.resolve(arg('bin', BIN));
const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-start-parts-'));

/** Spawn → the bare `live` footer, ms. */
async function live(root) {
  const m = startMonitor({ args: ['--root', root], cols: 80, rows: 24, bin, env: { XDG_CACHE_HOME: xdg } });
  try {
    return (await m.waitScreen(/ live\s*$/m, 120_000)) - m.spawnedAt;
  } finally {
    m.kill();
    await sleep(300);
  }
}

/** The floor: a fresh Node listing and reading the tree, spawn to exit, ms. */
function floor(root) {
  const t = performance.now();
  execFileSync(process.execPath, [path.join(REPO, 'bench/baseline/read-tree.mjs'), root]);
  return performance.now() - t;
}

// One walk of the tree in a fresh Node, timed inside it: `read` (the floor's work), `stat`, `stat+watch`.
const WALK = `
import fs from 'node:fs';
import path from 'node:path';
const [root, how] = process.argv.slice(1);
const watchers = [];
const t = performance.now();
const walk = (dir) => {
  if (how.includes('watch')) watchers.push(fs.watch(dir, () => {}));
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (how === 'read') {
      const text = fs.readFileSync(p, 'utf8');
      if (p.endsWith('.json')) try { JSON.parse(text); } catch {}
    } else fs.statSync(p);
  }
};
walk(root);
console.log(performance.now() - t);
for (const w of watchers) w.close();
`;
const walkMs = (root, how) =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', WALK, root, how], { encoding: 'utf8' }));

const med = (v) => Math.round(pct(v, 50));
console.log(JSON.stringify({ machine: machine(), bin }));
for (const spec of TREES) {
  const [n, pages] = spec.split('+').map(Number);
  const tree = generatedTree(n);
  if (pages) generateWiki(path.join(tree.root, 'wiki'), pages);
  try {
    await live(tree.root); // the code cache for this bundle, and the page cache for this tree
    const runs = { live: [], floor: [], read: [], stat: [], 'stat+watch': [] };
    for (let r = 0; r < ROUNDS; r++) {
      runs.live.push(await live(tree.root));
      runs.floor.push(floor(tree.root));
      for (const how of ['read', 'stat', 'stat+watch']) runs[how].push(walkMs(tree.root, how));
    }
    const [l, f] = [med(runs.live), med(runs.floor)];
    console.log(
      `${spec.padEnd(10)} live ${l} ms · floor ${f} ms (${(l / f).toFixed(2)}×) · in-process walks: ` +
        `read ${med(runs.read)} · stat ${med(runs.stat)} · stat+watch ${med(runs['stat+watch'])} ms (p50 of ${ROUNDS})`,
    );
  } finally {
    tree.cleanup();
  }
}
fs.rmSync(xdg, { recursive: true, force: true });
