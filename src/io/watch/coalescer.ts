/**
 * Turns single file events into the batches the domains read, on two edges.
 *
 * chokidar 5 drops a second `change` to the same file inside 50 ms and never
 * emits a trailing one: OMC's Stop hook rewrites a state file and a moment
 * later our reader would be left showing the old value. So every event is
 * delivered twice: at once (leading edge, in one batch per macrotask) and again
 * TRAILING_MS after the last event for that path (trailing edge), when the file
 * is re-read whatever the watcher said. Removals need no second look.
 */
import type { WatchEvent, WatchEventType } from './events.js';

export const TRAILING_MS = 60;

export type Edge = 'leading' | 'trailing';

export interface Coalescer {
  /**
   * One event for `rel`. `trailing: false` for an addDir whose directory was watched before it is listed (the
   * listing sees every file before the watch, the watch every file after it): no trailing re-list.
   */
  push(type: WatchEventType, rel: string, opt?: { trailing?: boolean }): void;
  /** Nothing is delivered after this. */
  close(): void;
}

export function createCoalescer(
  onEvents: (events: WatchEvent[], edge: Edge) => void,
  trailingMs = TRAILING_MS,
): Coalescer {
  let closed = false;
  const leading: WatchEvent[] = [];
  let leadingScheduled = false;
  const trailing = new Map<string, { type: WatchEventType; due: number }>();
  let trailingTimer: NodeJS.Timeout | null = null;

  const flushLeading = () => {
    leadingScheduled = false;
    if (closed) return;
    onEvents(leading.splice(0), 'leading');
  };

  const flushTrailing = () => {
    trailingTimer = null;
    if (closed) return;
    const now = Date.now();
    const due: WatchEvent[] = [];
    let nextDue = Infinity;
    for (const [rel, t] of trailing) {
      if (t.due <= now) {
        due.push({ type: t.type, rel });
        trailing.delete(rel);
      } else if (t.due < nextDue) nextDue = t.due;
    }
    if (due.length > 0) onEvents(due, 'trailing');
    if (nextDue !== Infinity) trailingTimer = setTimeout(flushTrailing, Math.max(1, nextDue - now));
  };

  return {
    push(type, rel, opt = {}) {
      if (closed) return;
      leading.push({ type, rel });
      if (!leadingScheduled) {
        leadingScheduled = true;
        setImmediate(flushLeading);
      }
      if (opt.trailing === false) {
        trailing.delete(rel);
      } else if (type === 'add' || type === 'change' || type === 'addDir') {
        trailing.set(rel, { type: type === 'addDir' ? 'addDir' : 'change', due: Date.now() + trailingMs });
        if (!trailingTimer) trailingTimer = setTimeout(flushTrailing, trailingMs);
      } else {
        trailing.delete(rel);
      }
    },
    close() {
      closed = true;
      if (trailingTimer) clearTimeout(trailingTimer);
      trailingTimer = null;
      trailing.clear();
    },
  };
}
