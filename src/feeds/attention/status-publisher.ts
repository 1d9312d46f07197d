/**
 * Keeps the status cache (status-cache.ts) equal to what a live monitor
 * shows: rewritten soon after the needs-you count or omc-top's
 * acknowledgements file moved, and at most once a second for the loops'
 * progress (each write is an atomic replace with its fsyncs, and 2,000 live
 * loops iterate all the time); removed when the monitor stops. Every
 * STATUS_CACHE_HEARTBEAT_MS without a write, the file's modification time is
 * set to now (a heartbeat: one system call, where a rewrite costs the idle
 * monitor a millisecond of CPU): a reader takes a cache whose time stopped
 * moving for a stuck monitor's and reads the files itself. Of several monitors
 * on one root, the one whose cache is on disk (the last to write it) keeps
 * the heartbeat; the others only look, and take the cache over when its
 * writer stops vouching for it (gone, stopped, silent). The write runs
 * off the main thread (one at a time, the newest after it: LatestFileWrite),
 * so its fsyncs on a slow disk do not hold a change back from the screen. A
 * write that fails (a full disk) only means `status --tmux` computes the line
 * itself.
 */
import type { OmcStore } from '../../store/store.js';
import { loopValues } from '../status-line.js';
import type { AttentionMonitor } from './monitor.js';
import { ensureOwnDir, LatestFileWrite, touchUnder } from '../../io/safe-fs/index.js';
import { isPinnedInstall } from '../../store/omc-install.js';
import {
  isOwnStatusCache,
  readStatusCache,
  removeStatusCache,
  STATUS_CACHE_HEARTBEAT_MS,
  statusCacheName,
  statusCacheText,
  writerSilence,
} from './status-cache.js';

/** After the count (or the acknowledgements) changed: changes closer together than this are one write. */
export const STATUS_CACHE_COUNT_MS = 100;
/** After a loop's progress changed: at most one write per this long. */
export const STATUS_CACHE_LOOPS_MS = 1000;

export function publishStatusCache(opts: {
  store: OmcStore;
  monitor: AttentionMonitor;
  project: string;
  /** omc-top's state directory (io/state-dir.ts). */
  dir: string;
}): () => void {
  const { store, monitor, project, dir } = opts;
  let timer: NodeJS.Timeout | null = null;
  let heart: NodeJS.Timeout | null = null;
  let due = Infinity;
  let last = '';
  let stopped = false;
  let wrote = false;
  // A failed write is written again at the next change (as when it was synchronous): nothing counts as written.
  const writer = new LatestFileWrite(dir, statusCacheName(store.root), () => (last = ''));
  /** Pinned to a release (--omc-version X): a what-if, marked so (an unpinned `status` then reads the files). */
  const pinned = store.omc !== null && isPinnedInstall(store.omc);
  const write = () => {
    timer = null;
    due = Infinity;
    if (stopped || !monitor.ready) return;
    const values = { ...loopValues(store.sessions.getSnapshot()), needs: monitor.count.getSnapshot(), project };
    const acks = monitor.acks?.stamp() ?? null;
    // The book the verdicts were judged with: `status --omc-version X` takes the line only from its own book. It is
    // part of what was written: a plugin update under the monitor changes it (omc-recheck.ts), maybe alone.
    const book = store.omc && !store.omc.assumed ? store.omc.rules : null;
    const key = JSON.stringify([values, acks, book]);
    if (key === last) return;
    try {
      const text = statusCacheText(store.root, values, acks, store.clock(), book, pinned);
      if (text !== null) {
        ensureOwnDir(dir);
        writer.write(text);
        last = key;
        wrote = true;
        // This write is a beat: a monitor whose loops iterate every second needs no other.
        heart?.refresh();
      }
    } catch {
      /* the cache is a shortcut: without it `status --tmux` computes the line itself */
    }
  };
  /** Writes within `ms`, or sooner if a write is already due sooner. */
  const schedule = (ms: number) => {
    if (stopped || Date.now() + ms >= due) return;
    if (timer) clearTimeout(timer);
    due = Date.now() + ms;
    timer = setTimeout(write, ms);
    timer.unref?.();
  };
  /** Every STATUS_CACHE_HEARTBEAT_MS without a write: says on disk that this monitor still runs. */
  const beat = () => {
    if (stopped) return;
    heart = setTimeout(beat, STATUS_CACHE_HEARTBEAT_MS);
    heart.unref?.();
    // Not ready: nothing is written yet. A write already due is a beat itself.
    if (!monitor.ready || timer) return;
    try {
      const onDisk = readStatusCache(dir, store.root).cache;
      if (onDisk && isOwnStatusCache(onDisk)) {
        // Ours and what we last wrote (none failed, none waits): its time is the beat. Else the values again; and
        // again when its `at` is after now (the clock moved back), which a touch would leave refused.
        const now = store.clock();
        if (!writer.unconfirmed && onDisk.at <= now && touchUnder(dir, statusCacheName(store.root), now)) return;
      } else if (onDisk && writerSilence(onDisk, store.clock()) === null) {
        // Another monitor on this root wrote it last and still vouches for it: that one beats; two would only take
        // the file from each other every few seconds.
        return;
      }
    } catch {
      /* unreadable, or the touch failed: written anew below */
    }
    // None, damaged, or its writer gone, stopped or silent: this monitor takes it over.
    last = '';
    write();
  };
  heart = setTimeout(beat, STATUS_CACHE_HEARTBEAT_MS);
  heart.unref?.();
  const unsubs = [
    monitor.view.subscribe(() => schedule(STATUS_CACHE_COUNT_MS)),
    store.sessions.subscribe(() => schedule(STATUS_CACHE_LOOPS_MS)),
  ];
  schedule(STATUS_CACHE_COUNT_MS);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (heart) clearTimeout(heart);
    unsubs.forEach((u) => u());
    writer.drop(); // a write still in flight must not bring the cache back after it is removed
    if (!wrote) return;
    try {
      removeStatusCache(dir, store.root);
    } catch {
      /* a stale cache is refused anyway: its writer is gone */
    }
  };
}
