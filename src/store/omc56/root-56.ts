/**
 * Root resolution rules OMC 5.6 added (upstream, cited per rule below):
 *  - a non-git directory adopts the nearest non-sensitive ancestor that already
 *    has a `.omc/` *directory* (a file named .omc does not count) before
 *    $HOME/.omc (upstream worktree-paths-nongit-anchor.test.ts @ 83ec18f4);
 *  - when the git binary is missing, the git top level is found by walking up
 *    for a `.git` entry, directory or file (scripts/lib/state-root.mjs @ edb04b31).
 * The `.omc-workspace` marker and OMC_STATE_DIR still win; root.ts checks them first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPath } from '../../io/safe-fs/byte-paths.js';
import { isDirectorySync } from '../../io/safe-fs/index.js';

/** True when no `git` executable is on PATH (what makes 5.6 fall back to the .git walk). */
export function gitBinaryMissing(env: NodeJS.ProcessEnv): boolean {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      try {
        fs.accessSync(path.join(dir, `git${ext}`), fs.constants.X_OK);
        return false;
      } catch {
        /* not here */
      }
    }
  }
  return true;
}

/** Nearest directory at or above `start` holding a `.git` entry (dir or file), or null. */
export function findGitTopByWalk(start: string): string | null {
  let cur = path.resolve(start);
  for (;;) {
    try {
      fs.lstatSync(path.join(cur, '.git'));
      return cur;
    } catch {
      /* keep climbing */
    }
    const parent = parentPath(cur);
    if (parent === cur) return null;
    cur = parent;
  }
}

/**
 * Nearest directory at or above `start`, below $HOME, that has a `.omc/`
 * directory and is not a sensitive location. Null when none.
 */
export function findAncestorOmcDir(start: string, home: string, isSensitive: (dir: string) => boolean): string | null {
  let cur = path.resolve(start);
  const homeAbs = path.resolve(home);
  for (;;) {
    if (cur === homeAbs) return null;
    if (!isSensitive(cur) && isDirectorySync(path.join(cur, '.omc'))) return cur;
    const parent = parentPath(cur);
    if (parent === cur) return null;
    cur = parent;
  }
}
