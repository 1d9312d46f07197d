/**
 * A watch refused for permission (EACCES, EPERM: inotify needs read permission, and `.omc` was made 0000 by its
 * owner, say) is not a lack of watches: the kernel has them, this directory may not be read now. The tree watcher
 * polls meanwhile; once the directory has changed mode or owner (its change time moved) and may be read, or is
 * gone, the watches are tried again, so the monitor is back on events as it was before the chmod. One attempt per
 * change of the directory: a chmod that still refuses costs one failed watch, not one a second.
 */
import fs from 'node:fs';

export interface Refusal {
  /** The directory the kernel refused to watch (or list). */
  readonly path: string;
  /** What a look at it found last: its change time, or that it may not even be looked at (a parent refused too). */
  seen: string;
}

/** One look: `gone` (nothing there), `refused` (a directory above may not be searched either), or its change time. */
const lookAt = (p: string): string => {
  try {
    return String(fs.statSync(p).ctimeMs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'refused';
  }
};

/** The refusal behind a watch failure (`fallback`: the path when the error names none), or null for any other. */
export function refusalOf(err: unknown, fallback: string): Refusal | null {
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code !== 'EACCES' && e?.code !== 'EPERM') return null;
  const p = typeof e.path === 'string' && e.path !== '' ? e.path : fallback;
  return { path: p, seen: lookAt(p) };
}

/** True when the refused directory is gone, or has changed since and may be read and searched now. */
export function mayWatchAgain(r: Refusal): boolean {
  const now = lookAt(r.path);
  if (now === 'gone') return true;
  if (now === r.seen) return false;
  r.seen = now;
  if (now === 'refused') return false;
  try {
    fs.accessSync(r.path, fs.constants.R_OK | fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
