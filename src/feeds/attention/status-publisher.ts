/**
 * Keeps the status cache (status-cache.ts) equal to what a live monitor
 * shows: rewritten, at most a few times a second, whenever the status line's
 * values change (a loop's progress, the needs-you count) or omc-top's
 * acknowledgements file moved; removed when the monitor stops. A write that
 * fails (a full disk) only means `status --tmux` computes the line itself.
 */
import type { OmcStore } from '../../store/store.js';
import { loopValues } from '../status-line.js';
import type { AttentionMonitor } from './monitor.js';
import { removeStatusCache, writeStatusCache } from './status-cache.js';

/** Changes closer together than this are one write. */
export const STATUS_CACHE_THROTTLE_MS = 150;

export function publishStatusCache(opts: {
  store: OmcStore;
  monitor: AttentionMonitor;
  project: string;
  /** omc-top's state directory (io/state-dir.ts). */
  dir: string;
}): () => void {
  const { store, monitor, project, dir } = opts;
  let timer: NodeJS.Timeout | null = null;
  let last = '';
  let stopped = false;
  let wrote = false;
  const write = () => {
    timer = null;
    if (stopped || !monitor.ready) return;
    const values = { ...loopValues(store.sessions.getSnapshot()), needs: monitor.count.getSnapshot(), project };
    const acks = monitor.acks?.stamp() ?? null;
    const key = JSON.stringify([values, acks]);
    if (key === last) return;
    try {
      if (writeStatusCache(dir, store.root, values, acks, Date.now())) {
        last = key;
        wrote = true;
      }
    } catch {
      /* the cache is a shortcut: without it `status --tmux` computes the line itself */
    }
  };
  const schedule = () => {
    if (timer || stopped) return;
    timer = setTimeout(write, STATUS_CACHE_THROTTLE_MS);
    timer.unref?.();
  };
  const unsubs = [monitor.view.subscribe(schedule), store.sessions.subscribe(schedule)];
  schedule();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    unsubs.forEach((u) => u());
    if (!wrote) return;
    try {
      removeStatusCache(dir, store.root);
    } catch {
      /* a stale cache is refused anyway: its writer is gone */
    }
  };
}
