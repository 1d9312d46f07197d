/**
 * The status cache: what a live monitor shows for its root (the status-line
 * values, needs-you count included), kept in omc-top's state directory so
 * `omc-top status --tmux`, which tmux runs every few seconds all day, can
 * answer from one small file instead of reading the whole tree. Light on
 * purpose (no store, no React): the cheap status path loads only this.
 *
 * The file is trusted only while it proves itself: its writer (pid and start
 * identity) is still running and not stopped, it showed life within
 * STATUS_CACHE_STALE_MS (it wrote the file, or set the file's modification
 * time: its heartbeat; a monitor whose event loop is stuck keeps its pid but
 * no longer follows the disk), it names this root, and
 * omc-top's acknowledgements file is as the writer last read it. Anything else
 * (no monitor, a crashed or hung one, an acknowledgement made since, a damaged
 * file) and the caller computes the line itself. It records the rule book its writer
 * judged with, so a call pinned to a book (`status --omc-version X`) takes it
 * only when the books agree.
 */
import { heartbeatSilence, HEARTBEAT_MS, lastBeat, SILENT_AFTER_MS } from '../../io/heartbeat.js';
import { ownStartIdentity, runningStartIdentity } from '../../io/process-start.js';
import { readTextSync, statSync, unlinkUnder } from '../../io/safe-fs/index.js';
import { rootFileName } from '../../io/state-dir.js';
import { isStatusValues, type StatusValues } from '../status-line.js';
import { ackFileName, ackStamp, type AckStamp } from './acks.js';
import { sameStamp } from '../../io/file-stamp.js';
import { showPaths } from '../../io/safe-fs/byte-paths.js';
import type { RulesVersion } from '../../store/verdict/types.js';

const CACHE_VERSION = 1;
const CACHE_MAX_BYTES = 64 * 1024;

/**
 * How often the monitor that wrote the cache shows it still runs when nothing changed (status-publisher.ts): it
 * sets the file's modification time, so a reader can tell a live monitor from one whose event loop is stuck. The
 * push lease's holder beats the same way (io/heartbeat.ts).
 */
export const STATUS_CACHE_HEARTBEAT_MS = HEARTBEAT_MS;
/** A cache whose writer showed no life for this long is not used (20 s: why, in io/heartbeat.ts). */
export const STATUS_CACHE_STALE_MS = SILENT_AFTER_MS;

export const statusCacheName = (root: string) => rootFileName('status', root);
/**
 * The root as every process names it: a directory held by its bytes (not UTF-8) is /proc/self/fd/N here, with an
 * N of this process's own, so its real path (bad bytes as \xNN) is what the cache records and compares.
 */
const rootText = (root: string) => showPaths(root);

export interface StatusCache {
  version: number;
  root: string;
  pid: number;
  start: string;
  /** When the writer computed it (epoch ms). */
  at: number;
  values: StatusValues;
  /** The acknowledgements file as the writer last read it (null: none). */
  acks: AckStamp | null;
  /**
   * The rule book the writer judged the project's sessions with; null when it found no OMC (the newest book
   * assumed, every book read) or the file does not say (written before the field existed).
   */
  book: RulesVersion | null;
  /**
   * The writer was pinned to a release (`--omc-version X`, a what-if): an unpinned call never takes its line (it
   * would show what X does, not what the OMC running the hooks does); a pinned call takes it when the books agree.
   * Absent in a file written before the field existed: not pinned.
   */
  pinned: boolean;
}

/** The cache's text for `root`, or null when this platform cannot prove the writer is alive (then none is kept). */
export function statusCacheText(
  root: string,
  values: StatusValues,
  acks: AckStamp | null,
  at: number,
  book: RulesVersion | null,
  pinned = false,
): string | null {
  const start = ownStartIdentity();
  if (typeof start !== 'string' || start === 'absent') return null;
  const doc: StatusCache = {
    version: CACHE_VERSION,
    root: rootText(root),
    pid: process.pid,
    start,
    at,
    values,
    acks,
    book,
    pinned,
  };
  return JSON.stringify(doc);
}

/** Removes the cache if this process wrote it (a monitor that exits). */
export function removeStatusCache(dir: string, root: string): void {
  const c = readStatusCache(dir, root);
  if (c.cache?.pid === process.pid) unlinkUnder(dir, statusCacheName(root));
}

/** A cache as read: its fields, and when its writer last showed life. */
export interface ReadCache extends StatusCache {
  /**
   * The later of `at` and the file's modification time (epoch ms): a write sets both, a heartbeat the time only
   * (a touch costs one system call where a rewrite costs an atomic replace with two fsyncs).
   */
  beat: number;
}

export type CacheRead = { cache: ReadCache; why: null } | { cache: null; why: string };

/** The cache for `root` as written, or why there is none to use (missing, damaged, another root). */
export function readStatusCache(dir: string, root: string): CacheRead {
  const r = readTextSync(dir, statusCacheName(root), CACHE_MAX_BYTES);
  if (!r.ok) return { cache: null, why: r.code === 'missing' ? 'no monitor has written one' : r.message };
  let v: Partial<StatusCache>;
  try {
    v = JSON.parse(r.text) as Partial<StatusCache>;
  } catch {
    return { cache: null, why: 'not JSON' };
  }
  if (!v || typeof v !== 'object' || v.version !== CACHE_VERSION) return { cache: null, why: 'another version' };
  if (v.root !== rootText(root)) return { cache: null, why: 'written for another root' };
  if (!Number.isSafeInteger(v.pid) || typeof v.start !== 'string' || typeof v.at !== 'number')
    return { cache: null, why: 'no writer identity' };
  if (!isStatusValues(v.values)) return { cache: null, why: 'no status values' };
  const a = v.acks;
  const acks =
    a && typeof a === 'object' && typeof a.mtimeMs === 'number' && typeof a.size === 'number'
      ? { mtimeMs: a.mtimeMs, size: a.size }
      : null;
  // Compared, never trusted as a book: a name that is no book's matches no pinned call.
  const book = typeof v.book === 'string' ? v.book : null;
  return {
    cache: {
      version: CACHE_VERSION,
      root,
      pid: v.pid as number,
      start: v.start,
      at: v.at,
      values: v.values,
      acks,
      book,
      pinned: v.pinned === true,
      beat: lastBeat(v.at, r.mtimeMs),
    },
    why: null,
  };
}

/** This process wrote `c` (a monitor asking whether the cache on disk is its own). */
export const isOwnStatusCache = (c: StatusCache): boolean => c.pid === process.pid && c.start === ownStartIdentity();

/**
 * Why the writer of `c` no longer vouches for it (null: it does): gone, stopped, or silent for longer than
 * STATUS_CACHE_STALE_MS at `now` (epoch ms).
 */
export function writerSilence(c: ReadCache, now: number): string | null {
  const s = heartbeatSilence(c, now, (pid) => runningStartIdentity(pid) === c.start);
  if (s === null) return null;
  switch (s.kind) {
    case 'silent':
      return `its monitor has shown no life for ${Math.round(s.ageMs / 1000)} s (stuck, or too busy to keep it)`;
    case 'future':
      // Written "in the future": the clock moved back since. Its next heartbeat rewrites it by the clock of now.
      return 'it was written after now (the clock moved back)';
    case 'gone':
      return 'its monitor is not running';
    case 'stopped':
      // Stopped (Ctrl-Z, kill -STOP): the pid lives on, but nothing keeps the line fresh while it is.
      return 'its monitor is stopped';
  }
}

/** The cache if it is what a live monitor shows now (`now`: epoch ms), else why not. */
export function liveStatusCache(dir: string, root: string, now: number = Date.now()): CacheRead {
  const r = readStatusCache(dir, root);
  if (!r.cache) return r;
  const c = r.cache;
  const silent = writerSilence(c, now);
  if (silent !== null) return { cache: null, why: silent };
  const st = statSync(dir, ackFileName(root));
  if (!sameStamp(st && ackStamp(st), c.acks))
    return { cache: null, why: 'acknowledgements changed since it was written' };
  return r;
}
