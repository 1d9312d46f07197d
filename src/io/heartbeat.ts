/**
 * A small file whose writer vouches for it while it runs: the status cache (feeds/attention/status-cache.ts) and the
 * push lease (feeds/notify/push/lease.ts). The file names its writer (pid and start identity) and when it was
 * written; while nothing else changes, the writer sets the file's modification time every HEARTBEAT_MS (one system
 * call, where a rewrite is an atomic replace with its fsyncs). A reader stops believing the writer once it is gone,
 * stopped (Ctrl-Z, `kill -STOP`: the pid lives on, but it does nothing), or showed no life for SILENT_AFTER_MS (its
 * event loop is stuck: the pid runs, the process does not follow anything). One rule for both files, so a monitor
 * the status line no longer trusts is the same one that no longer holds the push lease.
 */
import { processStopped } from './process-start.js';

/** How often a writer shows it still runs when it has nothing else to write. */
export const HEARTBEAT_MS = 5_000;
/**
 * A writer that showed no life for this long no longer vouches for its file. Four heartbeats, not one: on a loaded
 * 2-core machine a timer fires seconds late (a garbage collection, a slow disk's fsync in the same process); a bound
 * that such a delay crosses would take the file from a live writer exactly when the machine is busiest. A stuck
 * writer is then believed for at most 20 s.
 */
export const SILENT_AFTER_MS = 4 * HEARTBEAT_MS;

/** Why a writer no longer vouches for its file. */
export type Silence =
  /** It showed no life for `ageMs` (longer than SILENT_AFTER_MS): running, but stuck or starved. */
  | { kind: 'silent'; ageMs: number }
  /** Its last sign of life is after now by more than the bound: the clock moved back since. */
  | { kind: 'future' }
  | { kind: 'gone' }
  /** Stopped by a signal or a debugger (Linux; elsewhere this is never said). */
  | { kind: 'stopped' };

/**
 * When a writer last showed life: the later of the time it wrote into the file and the file's modification time
 * (a write sets both, a heartbeat the modification time only). The time is rounded to the millisecond: a beat set
 * to a whole millisecond reads back a microsecond off (it passes through a float of seconds).
 */
export const lastBeat = (writtenAt: number | null, mtimeMs: number): number =>
  writtenAt === null ? Math.round(mtimeMs) : Math.max(writtenAt, Math.round(mtimeMs));

/**
 * Why the writer `pid`, whose last sign of life was at `beat`, no longer vouches for its file at `now` (null: it
 * does). `runs` says whether that very process still runs (the caller compares the start identity its file
 * records). The age is checked first: it costs no look at the process.
 */
export function heartbeatSilence(
  w: { pid: number; beat: number },
  now: number,
  runs: (pid: number) => boolean,
): Silence | null {
  const age = now - w.beat;
  if (age > SILENT_AFTER_MS) return { kind: 'silent', ageMs: age };
  if (age < -SILENT_AFTER_MS) return { kind: 'future' };
  if (!runs(w.pid)) return { kind: 'gone' };
  if (processStopped(w.pid)) return { kind: 'stopped' };
  return null;
}
