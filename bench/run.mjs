// `npm run bench`: the numbers recorded in BENCHMARKS.md.
//   node bench/run.mjs [--sizes 200,2000] [--viewports 80x24,200x60] [--changes 100] [--idle 20]
import { benchMonitor } from './monitor.mjs';
import { generatedTree, machine, tree200 } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const sizes = arg('sizes', '200,2000').split(',').map(Number);
const viewports = arg('viewports', '80x24,200x60').split(',').map((v) => v.split('x').map(Number));
const changes = Number(arg('changes', '100'));
const idle = Number(arg('idle', '20'));

console.log(JSON.stringify({ machine: machine() }));
for (const n of sizes) {
  for (const [cols, rows] of viewports) {
    const tree = n === 200 ? tree200() : generatedTree(n);
    try {
      const r = await benchMonitor({ root: tree.root, label: n === 200 ? '200 (real OMC load tree)' : `${n} (generated)`, cols, rows, changes, idleSeconds: idle });
      console.log(JSON.stringify(r));
    } catch (e) {
      console.log(JSON.stringify({ tree: n, viewport: `${cols}x${rows}`, error: String(e?.message ?? e).slice(0, 500) }));
    } finally {
      tree.cleanup();
    }
  }
}
