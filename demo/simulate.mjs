// The demo simulator: writes real-shaped OMC state into a .omc root the way
// OMC does (atomic renames, pretty JSON), from every module in demo/sim/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeContext } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts every simulator module; returns a stop function. */
export async function startSimulator(root, projectDir) {
  const ctx = makeContext(root, projectDir);
  const files = fs
    .readdirSync(path.join(here, 'sim'))
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  const stops = [];
  for (const f of files) {
    const mod = await import(pathToFileURL(path.join(here, 'sim', f)).href);
    stops.push(await mod.start(ctx));
  }
  return () => {
    for (const s of stops) if (typeof s === 'function') s();
  };
}

// `node demo/simulate.mjs <project-dir>`: run the simulator alone against a project.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const projectDir = path.resolve(process.argv[2] ?? '.');
  const root = path.join(projectDir, '.omc');
  fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
  const stop = await startSimulator(root, projectDir);
  process.stderr.write(`[demo] simulating OMC in ${root}; Ctrl-C stops\n`);
  process.on('SIGINT', () => {
    stop();
    process.exit(0);
  });
}
