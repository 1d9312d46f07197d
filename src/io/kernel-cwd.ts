/**
 * The process's current directory as the kernel knows it now. A rename of that directory (or of one above it) moves
 * the process with it: the kernel's answer (/proc/self/cwd) is the new path. `process.cwd()` is not: Node keeps the
 * text it first got (its cwd cache, cleared only by its own chdir), so after a rename it still names the old path.
 */
import fs from 'node:fs';
import { readLinkSync } from './safe-fs/index.js';

/**
 * The current directory's path now, or null when it is gone (deleted: the kernel's path carries " (deleted)" and
 * names another directory or none) or cannot be told (not Linux, /proc unreadable, a name that is not UTF-8: the
 * text would name no directory). Checked by identity: the path returned is the directory the process is in.
 */
export function kernelCwd(): string | null {
  if (process.platform !== 'linux') return null;
  const link = readLinkSync('/proc', 'self/cwd');
  if (!link.ok || link.invalidUtf8) return null;
  try {
    const here = fs.statSync('.');
    const there = fs.statSync(link.target);
    return here.dev === there.dev && here.ino === there.ino && here.nlink > 0 ? link.target : null;
  } catch {
    return null; // the directory was deleted (statSync('.') of a removed cwd still works; its path names nothing)
  }
}
