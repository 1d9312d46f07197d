/**
 * The cancels omc-top made on one .omc root, kept in omc-top's own state directory beside the acknowledgements
 * (`cancels-<16 hex of the root>.json`, io/state-dir.ts). The tracker that follows a cancel lives in the process
 * that made it; this record is what every other omc-top process (a second monitor, `--json`, `watch --json`,
 * `status`) needs to say "cancel did not take" as well: which session and modes were cancelled, and when. Each
 * process then looks at the disk itself (feeds/attention/needs.ts `recordNeed`): the record alone never raises
 * anything.
 *
 * Written through the contained write path, atomically, under omc-top's lock on the file: two processes recording
 * at once are merged (each re-reads the file under the lock), never losing the other's entry. Bounded: an entry
 * expires a day after its cancel, and only the newest entries are kept. A file that cannot be read or parsed keeps
 * the records last read, with a problem line; the next cancel rewrites it.
 *
 * The process that follows a cancel to its verdict (the tracker of the one that made it, or any live omc-top on the
 * root that follows a record nobody settled: follow.ts) adds what it saw settle it (`settled`: the word, when, Claude's
 * stop when it saw one, its pid), the first to do so only, so every other process says the same settled word
 * (settled.ts), and a ✓ elsewhere is still a stop some process saw.
 */
import { watchOwnFile } from '../../io/watch/own-file.js';
import { withFileLock } from '../../io/file-lock.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import { atomicWriteSync, describeOwnDirError, ensureOwnDir, readTextSync, statSync } from '../../io/safe-fs/index.js';
import { showPaths } from '../../io/safe-fs/byte-paths.js';
import { rootFileName } from '../../io/state-dir.js';
import type { Clock } from '../types.js';
import { LEGACY_KEY } from '../sessions/model.js';
import { isValidSessionId } from '../sessions/omc-rules.js';
import { cleanLine, truncate } from '../../io/sanitize.js';

export interface CancelRecord {
  /** The tracker's key: the session id, or ":legacy" for the session-less state. */
  key: string;
  /** The modes the cancel ended (its linked modes included). */
  modes: readonly string[];
  /** When the signal was written (epoch ms): the occurrence every process names the same way. */
  requestedMs: number;
  /** When the signal's window ends (epoch ms). */
  expiresMs: number;
  /** Modes the cancel could not end (still active on disk right after it): no later write is needed to say so. */
  notEnded: readonly string[];
  /**
   * Part of the cancel's own write failed (execute.ts failedWrite: what was and was not written, the reason first),
   * so the modes in `notEnded` are a cancel that failed, not one in flight; null when it did not fail so.
   */
  failed?: string | null;
  /** What the process that followed the cancel saw settle it, or null while in flight (absent from an older omc-top). */
  settled?: CancelSettlement | null;
  /**
   * The omc-top process whose tracker follows the cancel to its end (the monitor or serve that made it; its start
   * identity, io/process-start.ts, so a pid used again is not taken for it): while it runs, the others leave the
   * settlement to it (follow.ts). Null when none does (`omc-top cancel`), absent from an older omc-top.
   */
  followedBy?: CancelFollower | null;
}

/** A process that follows a cancel: its pid and its start identity (null where none can be read). */
export interface CancelFollower {
  pid: number;
  start: string | null;
}

/** The verdicts a cancel settles on that other processes say too (tracker.ts phases stopped, cancelled, unobserved, not-taken). */
export const SETTLED_WORDS = ['stopped', 'cancelled', 'ended', 'not-taken'] as const;
export type SettledWordName = (typeof SETTLED_WORDS)[number];
/** How Claude's stop was seen (tracker.ts StopSeen). */
export const STOPS_SEEN = ['idle', 'turn-end', 'exited', 'gone'] as const;

/** A cancel's verdict as the process that followed it saw it. */
export interface CancelSettlement {
  word: SettledWordName;
  /** When that process's tracker settled it (epoch ms): every process shows the word for the same minutes after. */
  atMs: number;
  /** `stopped` only: when Claude was seen to stop (epoch ms), and by what sign. */
  stoppedMs: number | null;
  seen: (typeof STOPS_SEEN)[number] | null;
  /** The omc-top process that saw it. */
  byPid: number;
}

export interface CancelRecordsSnapshot {
  version: number;
  /** By key: the newest cancel of each session. */
  records: ReadonlyMap<string, CancelRecord>;
  /** Why the file could not be used (the records read before still hold), or null. */
  problem: string | null;
}

/** A cancel older than this says nothing any more: its loop has long been judged. */
export const CANCEL_RECORD_TTL_MS = 24 * 3_600_000;
/** The newest this many are kept (one per session). */
export const MAX_CANCEL_RECORDS = 200;
const FILE_MAX_BYTES = 256 * 1024;
const FILE_VERSION = 1;
/** The longest `failed` text kept (a reason and a few paths). */
const MAX_FAILED = 600;

export const cancelRecordsFileName = (root: string) => rootFileName('cancels', root);

export const EMPTY_CANCEL_RECORDS: CancelRecordsSnapshot = { version: 0, records: new Map(), problem: null };

type Parsed = { ok: true; records: Map<string, CancelRecord> } | { ok: false; message: string };

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
/** A mode is named by its state file (`<mode>-state.json`): a file name's characters, nothing a terminal reads. */
const MODE = /^[\w.-]{1,100}$/;
const isKey = (k: unknown): k is string => typeof k === 'string' && (k === LEGACY_KEY || isValidSessionId(k));

/**
 * A settlement read from the file, or null when it is not one: a `stopped` without the stop it saw is no ✓ (the
 * entry then says the store's word, never more). Whatever else is in the object is dropped.
 */
function parseSettlement(v: unknown, requestedMs: number): CancelSettlement | null {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const { word, atMs, stoppedMs, seen, byPid } = o;
  if (!SETTLED_WORDS.includes(word as SettledWordName) || !isTime(atMs) || atMs < requestedMs) return null;
  if (typeof byPid !== 'number' || !Number.isSafeInteger(byPid) || byPid <= 0) return null;
  if (word !== 'stopped') return { word: word as SettledWordName, atMs, stoppedMs: null, seen: null, byPid };
  if (!isTime(stoppedMs) || stoppedMs < requestedMs || !STOPS_SEEN.includes(seen as (typeof STOPS_SEEN)[number]))
    return null;
  return { word, atMs, stoppedMs, seen: seen as (typeof STOPS_SEEN)[number], byPid };
}

/** Who follows a cancel, read from the file: a positive pid and a start identity of digits, else nobody. */
function parseFollower(v: unknown): CancelFollower | null {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const { pid, start } = o;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (start !== null && (typeof start !== 'string' || !/^\d{1,30}$/.test(start))) return null;
  return { pid, start };
}

const sameSettlement = (a: CancelSettlement | null | undefined, b: CancelSettlement | null | undefined) =>
  (a ?? null) === (b ?? null) || (a?.word === b?.word && a?.atMs === b?.atMs && a?.stoppedMs === b?.stoppedMs);

/** The entries still in force at `now`, newest kept. */
function bounded(records: Iterable<CancelRecord>, now: number): Map<string, CancelRecord> {
  const fresh = [...records].filter((r) => r.requestedMs > now - CANCEL_RECORD_TTL_MS);
  fresh.sort((a, b) => a.requestedMs - b.requestedMs);
  return new Map(fresh.slice(-MAX_CANCEL_RECORDS).map((r) => [r.key, r]));
}

export function parseCancelRecords(text: string, now: number): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `is not JSON (${(e as Error).message})` };
  }
  const o = v as { version?: unknown; cancels?: unknown } | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { ok: false, message: 'is not a JSON object' };
  if (o.version !== FILE_VERSION) return { ok: false, message: `has version ${JSON.stringify(o.version)}, not 1` };
  if (!Array.isArray(o.cancels)) return { ok: false, message: '"cancels" is not a list' };
  const out: CancelRecord[] = [];
  for (const c of o.cancels as unknown[]) {
    // A bad entry is skipped, not the file: the others still hold.
    const e = c as Record<string, unknown> | null;
    if (!e || typeof e !== 'object') continue;
    const { key, modes, requestedMs, expiresMs, notEnded, failed, settled, followedBy } = e;
    if (!isKey(key)) continue;
    if (!Array.isArray(modes) || modes.length === 0 || modes.length > 10) continue;
    if (!modes.every((m) => typeof m === 'string' && MODE.test(m))) continue;
    if (!isTime(requestedMs) || !isTime(expiresMs)) continue;
    // Absent in a file an older omc-top wrote: every mode was ended.
    const kept = Array.isArray(notEnded)
      ? notEnded.filter((m): m is string => typeof m === 'string' && MODE.test(m))
      : [];
    // Absent from an older omc-top's file: not known to have failed. Text from a file: cleaned and bounded.
    const why = typeof failed === 'string' && failed.length > 0 ? truncate(cleanLine(failed), MAX_FAILED) : null;
    out.push({
      key,
      modes: modes as string[],
      requestedMs,
      expiresMs,
      notEnded: kept.slice(0, 10),
      failed: why,
      settled: settled === undefined || settled === null ? null : parseSettlement(settled, requestedMs),
      followedBy: parseFollower(followedBy),
    });
  }
  return { ok: true, records: bounded(out, now) };
}

export function serializeCancelRecords(root: string, records: Iterable<CancelRecord>, now: number): string {
  const kept = [...bounded(records, now).values()];
  // A root held by its bytes is recorded by its real path (bad bytes as \xNN), not this process's /proc/self/fd/N.
  return JSON.stringify({ version: FILE_VERSION, root: showPaths(root), cancels: kept });
}

export class CancelRecordFile {
  readonly file: string;
  readonly cell = new SnapshotCell<CancelRecordsSnapshot>(EMPTY_CANCEL_RECORDS);
  private stampSeen: { mtimeMs: number; size: number } | null = null;

  constructor(
    readonly dir: string,
    readonly root: string,
    private readonly clock: Clock = Date.now,
  ) {
    this.file = cancelRecordsFileName(root);
    this.load();
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;

  /** Re-reads the file when it changed. */
  load(): void {
    // No directory or no file: no cancel was recorded on this root.
    const st = statSync(this.dir, '.') ? statSync(this.dir, this.file) : null;
    if (!st) return this.replace(new Map(), null, null);
    const stamp = { mtimeMs: st.mtimeMs, size: st.size };
    if (this.stampSeen && this.stampSeen.mtimeMs === stamp.mtimeMs && this.stampSeen.size === stamp.size) return;
    const r = readTextSync(this.dir, this.file, FILE_MAX_BYTES);
    if (!r.ok) {
      if (r.code === 'missing') return this.replace(new Map(), null, null);
      return this.keep(stamp, r.message);
    }
    const p = parseCancelRecords(r.text, this.clock());
    if (!p.ok) return this.keep(stamp, p.message);
    this.replace(p.records, stamp, null);
  }

  /**
   * Records a cancel: at once in this process (so its own surfaces never wait for the disk, or lose it when the
   * write fails), then merged with what another omc-top wrote meanwhile and written atomically. Resolves to why
   * it could not be written (the directory and the reason, for the cancel's own message), or null.
   */
  add(rec: CancelRecord): Promise<string | null> {
    return this.change(rec.key, (had) => (!had || had.requestedMs <= rec.requestedMs ? rec : null), 'this cancel');
  }

  /**
   * Records what this process saw settle the cancel of `key` made at `requestedMs` (its tracker's verdict, or its
   * follower's: follow.ts), the same way as `add`. A newer cancel of the session in the file is left alone: this
   * verdict is not about it. The first settlement wins: one already recorded (here, or in the file under the lock) is
   * kept, so every process says one word for the cancel.
   */
  settle(key: string, requestedMs: number, settled: CancelSettlement): Promise<string | null> {
    // This process's own record when the file lost it (its write failed, or the file was damaged since).
    const mine = this.cell.getSnapshot().records.get(key);
    return this.change(
      key,
      (had) => {
        const base = had?.requestedMs === requestedMs ? had : mine?.requestedMs === requestedMs ? mine : null;
        if (!base || (had && had.requestedMs > requestedMs) || (base.settled ?? null) !== null) return null;
        return { ...base, settled };
      },
      "this cancel's verdict",
    );
  }

  /**
   * Puts `next(entry)` in place of the entry of `key`, here at once and in the file under omc-top's lock (the file
   * re-read there, so another process's entries are kept); `next` returning null leaves the entry as it is.
   */
  private async change(
    key: string,
    next: (had: CancelRecord | undefined) => CancelRecord | null,
    what: string,
  ): Promise<string | null> {
    const here = next(this.cell.getSnapshot().records.get(key));
    if (here) {
      const mine = new Map(this.cell.getSnapshot().records);
      mine.set(key, here);
      this.replace(mine, this.stampSeen, this.cell.getSnapshot().problem);
    }
    try {
      ensureOwnDir(this.dir);
      await withFileLock(this.dir, this.file, () => {
        const r = readTextSync(this.dir, this.file, FILE_MAX_BYTES);
        const onDisk = r.ok ? parseCancelRecords(r.text, this.clock()) : null;
        // A damaged file is replaced by what this process knows (its last good read) plus the change.
        const merged = new Map(onDisk?.ok ? onDisk.records : this.cell.getSnapshot().records);
        const entry = next(merged.get(key));
        if (!entry) return;
        merged.set(key, entry);
        atomicWriteSync(this.dir, this.file, serializeCancelRecords(this.root, merged.values(), this.clock()));
      });
    } catch (e) {
      const why = describeOwnDirError(this.dir, e);
      const snap = this.cell.getSnapshot();
      this.cell.set({
        ...snap,
        version: snap.version + 1,
        problem: `omc-top's record of its cancels (${this.file}) could not be written (${why}): other omc-top processes do not know of ${what}`,
      });
      return why;
    }
    this.stampSeen = null;
    this.load();
    return null;
  }

  /** Follows the file (another omc-top's cancels); returns a stop function. Creates nothing. */
  watch(): () => void {
    return watchOwnFile(this.dir, this.file, () => this.load());
  }

  private keep(stamp: { mtimeMs: number; size: number }, message: string): void {
    this.stampSeen = stamp;
    const problem = `omc-top's record of its cancels (${this.file}) ${message}; the cancels read before still count`;
    const snap = this.cell.getSnapshot();
    if (snap.problem !== problem) this.cell.set({ ...snap, version: snap.version + 1, problem });
  }

  private replace(
    records: Map<string, CancelRecord>,
    stamp: { mtimeMs: number; size: number } | null,
    problem: string | null,
  ): void {
    this.stampSeen = stamp;
    const snap = this.cell.getSnapshot();
    const same =
      snap.problem === problem &&
      snap.records.size === records.size &&
      [...records].every(([k, r]) => {
        const had = snap.records.get(k);
        return had?.requestedMs === r.requestedMs && sameSettlement(had.settled, r.settled);
      });
    if (same) return;
    this.cell.set({ version: snap.version + 1, records, problem });
  }
}
