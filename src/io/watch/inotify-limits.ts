/**
 * The inotify arithmetic shared by `omc-top doctor` and the fleet: the
 * kernel's per-user limits, and how many watches a tree costs (one per
 * directory, the root included).
 */
import { listDirSync, readTextSync } from '../safe-fs/index.js';

/** A /proc/sys number, or null where there is none (not Linux, no such limit). */
function procNumber(procRoot: string, rel: string): number | null {
  const r = readTextSync(procRoot, rel, 64);
  if (!r.ok) return null;
  const n = Number.parseInt(r.text.trim(), 10);
  return Number.isFinite(n) ? n : null;
}

/** The smaller of the global limit and the user namespace's own (Linux ≥ 5.11), where present. */
function limit(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

export interface InotifyLimits {
  watches: number | null;
  instances: number | null;
}

export function inotifyLimits(procRoot = '/proc'): InotifyLimits {
  return {
    watches: limit(
      procNumber(procRoot, 'sys/fs/inotify/max_user_watches'),
      procNumber(procRoot, 'sys/user/max_inotify_watches'),
    ),
    instances: limit(
      procNumber(procRoot, 'sys/fs/inotify/max_user_instances'),
      procNumber(procRoot, 'sys/user/max_inotify_instances'),
    ),
  };
}

/** Directories under `root`, the root included (one inotify watch each), counted up to `max`. */
export function countDirectories(root: string, max = 200_000): number {
  let count = 1;
  const queue = [''];
  while (queue.length > 0 && count < max) {
    const rel = queue.pop() as string;
    const list = listDirSync(root, rel || '.');
    if (!list.ok) continue;
    for (const e of list.entries) {
      if (e.kind !== 'dir') continue;
      count++;
      queue.push(rel ? `${rel}/${e.name}` : e.name);
    }
  }
  return count;
}
