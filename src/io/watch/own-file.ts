/**
 * Follows one small file omc-top keeps in its own state directory (the acknowledgements, the cancel records) as
 * other omc-top processes write it: a directory watch (the file is replaced by rename, so its own inode would go
 * stale), its events for that name coalesced for 25 ms, then `load`. Watching creates nothing: until the
 * directory exists (no omc-top has written anything yet) it is looked for every few seconds. Returns a stop.
 */
import fs from 'node:fs';
import { statSync } from '../safe-fs/index.js';

const RETRY_MS = 5_000;
const COALESCE_MS = 25;

export function watchOwnFile(dir: string, file: string, load: () => void): () => void {
  let watcher: fs.FSWatcher | null = null;
  let reloadTimer: NodeJS.Timeout | null = null;
  const tryWatch = () => {
    if (watcher || !statSync(dir, '.')) return;
    try {
      watcher = fs.watch(dir, { persistent: false }, (_t, name) => {
        if (name && String(name) !== file) return;
        if (reloadTimer) return;
        reloadTimer = setTimeout(() => {
          reloadTimer = null;
          load();
        }, COALESCE_MS);
        reloadTimer.unref?.();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
      load(); // written between the last read and the watch
    } catch {
      watcher = null; // retried by the timer; this process's own writes still apply
    }
  };
  tryWatch();
  const retryTimer: NodeJS.Timeout | null = setInterval(tryWatch, RETRY_MS);
  retryTimer.unref?.();
  return () => {
    watcher?.close();
    watcher = null;
    if (reloadTimer) clearTimeout(reloadTimer);
    reloadTimer = null;
    clearInterval(retryTimer);
  };
}
