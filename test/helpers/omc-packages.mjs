// The one place tests, helpers and benchmarks find the real OMC packages.
// They live in test/omc-packages/ (own lockfile, installed without install
// scripts by scripts/omc-packages.mjs, which `npm test` runs first), not in the
// root node_modules; test/global-setup.ts checks they are installed as locked.
// Plain .mjs so the .mjs helpers and bench/ can use it too.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODULES = path.join(REPO, 'test', 'omc-packages', 'node_modules');

/** oh-my-claude-sisyphus 5.5.0 (npm's current OMC). */
export const OMC55 = path.join(MODULES, 'oh-my-claude-sisyphus');
/** oh-my-claude-sisyphus 4.4.4, installed under the alias omc-444. */
export const OMC444 = path.join(MODULES, 'omc-444');

/** Imports a module of an OMC package by its path inside the package (e.g. 'dist/hooks/ralph/prd.js'). */
export const importOmc = (pkgDir, rel) => import(pathToFileURL(path.join(pkgDir, rel)).href);
