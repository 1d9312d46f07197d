/**
 * Follows one small file omc-top keeps in its own state directory (the acknowledgements, the cancel records), or a
 * few written together (the cancel records and their side file), as other omc-top processes write them: a directory
 * watch (a file is replaced by rename, so its own inode would go stale), its events for those names coalesced for
 * 25 ms, then `load`. Watching creates nothing: until the
 * directory exists (no omc-top has written anything yet) it is looked for every few seconds (and again if the watch
 * fails; not while it works). `replacedOnly`: only a replace or a removal of the file counts, not a change of its
 * times (a heartbeat's touch: io/heartbeat.ts). `loadAtStart: false`: the caller looks itself once the watch is set.
 * Returns a stop.
 */
import fs from 'node:fs';
import { statSync } from '../safe-fs/index.js';

const RETRY_MS = 5_000;
const COALESCE_MS = 25;

export function watchOwnFile(
  dir: string,
  file: string | readonly string[],
  load: () => void,
  opts: { replacedOnly?: boolean; loadAtStart?: boolean } = {},
): () => void {
  const names: readonly string[] = typeof file === 'string' ? [file] : file;
  let watcher: fs.FSWatcher | null = null;
  let reloadTimer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  const retry = () => {
    if (retryTimer) return;
    retryTimer = setInterval(tryWatch, RETRY_MS);
    retryTimer.unref?.();
  };
  const tryWatch = () => {
    if (watcher || !statSync(dir, '.')) return;
    try {
      watcher = fs.watch(dir, { persistent: false }, (type, name) => {
        if (name && !names.includes(String(name))) return;
        if (opts.replacedOnly && type !== 'rename') return;
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
        retry();
      });
      // Watching: nothing to look for any more (no timer at rest).
      if (retryTimer) clearInterval(retryTimer);
      retryTimer = null;
      if (opts.loadAtStart !== false) load(); // written between the last read and the watch
    } catch {
      watcher = null; // retried by the timer; this process's own writes still apply
    }
  };
  tryWatch();
  if (!watcher) retry();
  return () => {
    watcher?.close();
    watcher = null;
    if (reloadTimer) clearTimeout(reloadTimer);
    reloadTimer = null;
    if (retryTimer) clearInterval(retryTimer);
    retryTimer = null;
  };
}
