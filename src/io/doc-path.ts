/**
 * One of omc-top's own docs, named to the user where it can be opened: `docs/reach.md` means nothing in the project
 * directory the user runs omc-top in, so every help text, doctor line and screen names the file the package ships
 * (package.json "files": docs/*.md), in the package the running code belongs to. Under $HOME it is written `~/…`
 * (shorter at 80 columns, and a shell still opens it); the rest of the path is shown as shownPath shows any path (an
 * install directory holding a control byte names it, never writes it to the terminal).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { homeDir } from './home-dir.js';
import { shownPath } from './shown-path.js';
import { readJsonSync, statSync } from './safe-fs/index.js';

/** The docs the package ships that a message names (test/commands/doc-paths.test.ts checks package.json lists each). */
export type DocName = 'answering.md' | 'attention.md' | 'fleet.md' | 'reach.md' | 'scripting.md';

/** package.json is a few KB; a bigger one at some level above the bundle is not omc-top's. */
const PACKAGE_JSON_MAX_BYTES = 256 * 1024;

/**
 * The package directory the running code belongs to: the nearest directory at or above this module holding a
 * package.json named "omc-top" (dist/.. for the installed bundles, the repository when run from source). Looked up,
 * not assumed from the layout: a bundle copied or loaded from elsewhere has no omc-top package above it, and then no
 * directory is named at all (null) rather than a wrong one. Read through the safe read path, once per process.
 */
function findPackageDir(): string | null {
  let dir: string;
  try {
    dir = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    return null; // not a file URL (a bundle loaded some other way): nothing to look up from
  }
  for (;;) {
    const r = readJsonSync(dir, 'package.json', PACKAGE_JSON_MAX_BYTES);
    if (r.ok && (r.value as { name?: unknown } | null)?.name === 'omc-top') return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

let packageDir: string | null | undefined;

/**
 * The installed doc `name` as the user can open it: `~/…/omc-top/docs/reach.md`, or its absolute path. When omc-top's
 * package (or that doc in it) is not found from where the code runs: `omc-top's docs/reach.md`, which names the doc
 * and whose it is without pointing at a path that is not there.
 */
export function docPath(name: DocName, home: string = homeDir()): string {
  if (packageDir === undefined) packageDir = findPackageDir();
  if (packageDir === null || !statSync(packageDir, path.join('docs', name))?.isFile()) return `omc-top's docs/${name}`;
  const full = path.join(packageDir, 'docs', name);
  const underHome = home !== '/' && full.startsWith(home.endsWith('/') ? home : `${home}/`);
  return shownPath(underHome ? `~/${path.relative(home, full)}` : full);
}
