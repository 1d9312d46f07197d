// Builds bench/render.tsx with the same Ink patches as the shipped bundle and runs it.
//   node bench/render.mjs <root> [cols] [rows] [frames]
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundle } from '../scripts/build.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', '.bench-tmp', 'render.mjs');
await bundle(path.join(here, 'render.tsx'), out);
const r = spawnSync(process.execPath, [out, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
