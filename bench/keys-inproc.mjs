// Builds bench/keys-inproc.tsx with the same Ink patches as the shipped bundle and runs it (see that file).
//   node bench/keys-inproc.mjs <root> wiki|sessions [cols] [rows] [--prof-out file.cpuprofile] [--entry other.tsx]
//                              [--short] [--no-minify]
// --no-minify: a bundle whose functions keep their names, for readable profiles.
// --entry: the same harness in another checkout (a base commit's source, with this folder's keys-inproc.tsx and in-process-app.tsx copied into its bench/), for before/after pairs.
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundle } from '../scripts/build.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const i = args.indexOf('--entry');
const entry = i === -1 ? path.join(here, 'keys-inproc.tsx') : path.resolve(args.splice(i, 2)[1]);
const out = path.join(here, '..', '.bench-tmp', `keys-inproc-${process.pid}.mjs`);
const plain = args.indexOf('--no-minify');
if (plain !== -1) args.splice(plain, 1);
await bundle(entry, out, { minify: plain === -1 });
const r = spawnSync(process.execPath, [out, ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
