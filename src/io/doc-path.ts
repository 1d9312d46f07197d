/**
 * One of omc-top's own docs, named to the user where it can be opened: `docs/reach.md` means nothing in the project
 * directory the user runs omc-top in, so every help text, doctor line and screen names the file the package ships
 * (package.json "files": docs/*.md beside dist/), found from the running bundle's own location. Under $HOME it is
 * written `~/…` (shorter at 80 columns, and a shell still opens it); the rest of the path is shown as shownPath shows
 * any path (an install directory holding a control byte names it, never writes it to the terminal).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { homeDir } from './home-dir.js';
import { shownPath } from './shown-path.js';

/** The docs the package ships that a message names (test/unit/doc-path.test.ts checks package.json lists each). */
export type DocName = 'answering.md' | 'attention.md' | 'fleet.md' | 'reach.md' | 'scripting.md';

/**
 * The package's directory: the parent of dist/ for the bundles (dist/*.mjs, the installed package), the repository
 * when run from source (this file is src/io/doc-path.ts: tests, tsx).
 */
function packageDir(): string {
  let here: string;
  try {
    here = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    // Not a file URL (a bundle loaded some other way): the working copy's layout is the best guess left.
    return path.resolve('.');
  }
  return path.basename(here) === 'dist' ? path.dirname(here) : path.resolve(here, '..', '..');
}

/** The installed doc `name` as the user can open it: `~/…/omc-top/docs/reach.md`, or its absolute path. */
export function docPath(name: DocName, home: string = homeDir()): string {
  const full = path.join(packageDir(), 'docs', name);
  const underHome = home !== '/' && full.startsWith(home.endsWith('/') ? home : `${home}/`);
  return shownPath(underHome ? `~/${path.relative(home, full)}` : full);
}
