/**
 * omc-top's own state directory: `$XDG_STATE_HOME/omc-top/` (default
 * `~/.local/state/omc-top/`), outside every .omc tree. Files that belong to
 * one .omc root carry a short digest of its absolute path in their name, so
 * every omc-top process on this machine finds the same file for a root.
 */
import path from 'node:path';
import { createHash } from 'node:crypto';
import { bytesOfPath } from './safe-fs/byte-paths.js';
import { homeDir } from './home-dir.js';

export function ownStateDir(env: NodeJS.ProcessEnv = process.env, home = homeDir(env)): string {
  const base =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(base, 'omc-top');
}

/** `<prefix>-<16 hex of sha256(root)>.json`, or `<prefix>-<hex>-<tail>.json` for one of several files of a root. */
export function rootFileName(prefix: string, root: string, tail?: string): string {
  // The path's bytes: a directory held by them (not UTF-8) has a /proc/self/fd/N name that differs per process.
  return `${prefix}-${createHash('sha256')
    .update(bytesOfPath(path.resolve(root)))
    .digest('hex')
    .slice(0, 16)}${tail === undefined ? '' : `-${tail}`}.json`;
}
