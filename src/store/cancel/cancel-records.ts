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
 * (settled.ts), and a ✓ elsewhere is still a stop some process saw. An omc-top from before those fields drops them
 * when it writes the record back, so both are kept in a side file too, where it never writes (settled-side.ts),
 * written under this file's lock with it and merged into what is read of it.
 */
import { watchOwnFile } from '../../io/watch/own-file.js';
import { withFileLock } from '../../io/file-lock.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import { atomicWriteSync, describeOwnDirError, ensureOwnDir, readTextSync, statSync } from '../../io/safe-fs/index.js';
import { showPaths } from '../../io/safe-fs/byte-paths.js';
import { rootFileName } from '../../io/state-dir.js';
import { sameStamp, stampOf } from '../../io/file-stamp.js';
import type { Clock } from '../types.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import {
  bounded,
  isKey,
  isTime,
  parseFollower,
  parseSettlement,
  sameFollower,
  sameSettlement,
  type CancelFollower,
  type CancelSettlement,
} from './record-fields.js';
import {
  parseSettledSide,
  serializeSettledSide,
  settledSideFileName,
  sideEntriesOf,
  withSettledSide,
  type SettledSideEntry,
} from './settled-side.js';

export {
  CANCEL_RECORD_TTL_MS,
  MAX_CANCEL_RECORDS,
  SETTLED_WORDS,
  STOPS_SEEN,
  type CancelFollower,
  type CancelSettlement,
  type SettledWordName,
} from './record-fields.js';

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

export interface CancelRecordsSnapshot {
  version: number;
  /** By key: the newest cancel of each session. */
  records: ReadonlyMap<string, CancelRecord>;
  /** Why the file could not be used (the records read before still hold), or null. */
  problem: string | null;
}

const FILE_MAX_BYTES = 256 * 1024;
const FILE_VERSION = 1;
/** The longest `failed` text kept (a reason and a few paths). */
const MAX_FAILED = 600;

export const cancelRecordsFileName = (root: string) => rootFileName('cancels', root);

export const EMPTY_CANCEL_RECORDS: CancelRecordsSnapshot = { version: 0, records: new Map(), problem: null };

type Parsed = { ok: true; records: Map<string, CancelRecord> } | { ok: false; message: string };

/** A mode is named by its state file (`<mode>-state.json`): a file name's characters, nothing a terminal reads. */
const MODE = /^[\w.-]{1,100}$/;

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

/** A file's mtime and size when read: read again when either moved. */
type Stamp = { mtimeMs: number; size: number };

/** One of the two files as last read whole (its last good read), the stamp it was read at, and why not since. */
interface Kept<T> {
  value: T;
  stamp: Stamp | null;
  problem: string | null;
}

type Read<T> = { ok: true; value: T } | { ok: false; message: string };

export class CancelRecordFile {
  readonly file: string;
  /** The side file of the cancels' verdicts and followers (settled-side.ts). */
  readonly sideFile: string;
  readonly cell = new SnapshotCell<CancelRecordsSnapshot>(EMPTY_CANCEL_RECORDS);
  private main: Kept<Map<string, CancelRecord>> = { value: new Map(), stamp: null, problem: null };
  private side: Kept<Map<string, SettledSideEntry>> = { value: new Map(), stamp: null, problem: null };
  /** Why this process's last write failed, until the record is read anew. */
  private writeProblem: string | null = null;

  constructor(
    readonly dir: string,
    readonly root: string,
    private readonly clock: Clock = Date.now,
  ) {
    this.file = cancelRecordsFileName(root);
    this.sideFile = settledSideFileName(root);
    this.load();
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;

  /** Re-reads the record and its side file, each when it changed. */
  load(): void {
    // No directory: no cancel was recorded on this root.
    const dirThere = statSync(this.dir, '.') !== null;
    const main = this.reread(this.main, dirThere, this.file, this.parseMain);
    const side = this.reread(this.side, dirThere, this.sideFile, this.parseSide);
    if (main !== this.main) this.writeProblem = null;
    this.main = main;
    this.side = side;
    this.publish();
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
   * verdict is not about it. The first settlement wins: one already recorded (here, or on disk under the lock, in the
   * record or its side file) is kept, so every process says one word for the cancel.
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
   * Puts `next(entry)` in place of the entry of `key`, here at once and on disk under omc-top's lock on the record
   * (both files re-read there, so another process's entries are kept); `next` returning null leaves the entry as it
   * is. The side file is written first, then the record, both with every settlement and follower known: a record an
   * older omc-top rewrote without them gets them back for the omc-tops that read only the record.
   */
  private async change(
    key: string,
    next: (had: CancelRecord | undefined) => CancelRecord | null,
    what: string,
  ): Promise<string | null> {
    const here = next(this.cell.getSnapshot().records.get(key));
    if (here) {
      this.main = { ...this.main, value: new Map(this.main.value).set(key, here) };
      this.publish();
    }
    try {
      ensureOwnDir(this.dir);
      await withFileLock(this.dir, this.file, () => {
        const main = this.readWhole(this.file, this.parseMain);
        const side = this.readWhole(this.sideFile, this.parseSide);
        // A damaged file is replaced by what this process knows (its last good read) plus the change.
        const merged = withSettledSide(main.value ?? this.main.value, side.value ?? this.side.value);
        const entry = next(merged.get(key));
        if (!entry) return;
        merged.set(key, entry);
        const now = this.clock();
        const kept = sideEntriesOf(merged.values());
        const sideText = serializeSettledSide(this.root, kept, now);
        if (sideText !== side.text && (kept.length > 0 || side.text !== null))
          atomicWriteSync(this.dir, this.sideFile, sideText);
        atomicWriteSync(this.dir, this.file, serializeCancelRecords(this.root, merged.values(), now));
      });
    } catch (e) {
      const why = describeOwnDirError(this.dir, e);
      this.writeProblem = `omc-top's record of its cancels (${this.file}) could not be written (${why}): other omc-top processes do not know of ${what}`;
      this.publish();
      return why;
    }
    this.main = { ...this.main, stamp: null };
    this.side = { ...this.side, stamp: null };
    this.load();
    return null;
  }

  /** Follows both files (another omc-top's cancels and verdicts); returns a stop function. Creates nothing. */
  watch(): () => void {
    return watchOwnFile(this.dir, [this.file, this.sideFile], () => this.load());
  }

  private readonly parseMain = (text: string): Read<Map<string, CancelRecord>> => {
    const p = parseCancelRecords(text, this.clock());
    return p.ok ? { ok: true, value: p.records } : p;
  };

  private readonly parseSide = (text: string): Read<Map<string, SettledSideEntry>> => {
    const p = parseSettledSide(text, this.clock());
    return p.ok ? { ok: true, value: p.entries } : p;
  };

  /** `file` read again when its stamp changed: missing is empty; unreadable or damaged keeps the last good read. */
  private reread<T extends Map<string, unknown>>(
    was: Kept<T>,
    dirThere: boolean,
    file: string,
    parse: (text: string) => Read<T>,
  ): Kept<T> {
    const st = dirThere ? statSync(this.dir, file) : null;
    if (!st) return { value: new Map() as T, stamp: null, problem: null };
    const stamp: Stamp = stampOf(st, ['mtimeMs', 'size']);
    if (was.stamp && sameStamp(stamp, was.stamp)) return was;
    const r = readTextSync(this.dir, file, FILE_MAX_BYTES);
    if (!r.ok)
      return r.code === 'missing'
        ? { value: new Map() as T, stamp: null, problem: null }
        : { ...was, stamp, problem: r.message };
    const p = parse(r.text);
    return p.ok ? { value: p.value, stamp, problem: null } : { ...was, stamp, problem: p.message };
  }

  /** `file` as it is now (under the lock): its text (null when there is none to read) and its entries, if whole. */
  private readWhole<T>(file: string, parse: (text: string) => Read<T>): { text: string | null; value: T | null } {
    const r = readTextSync(this.dir, file, FILE_MAX_BYTES);
    if (!r.ok) return { text: null, value: null };
    const p = parse(r.text);
    return { text: r.text, value: p.ok ? p.value : null };
  }

  /** The record with its side file's verdicts and followers, and the problems of both, as one snapshot. */
  private publish(): void {
    const records = withSettledSide(this.main.value, this.side.value);
    const problems = [
      this.main.problem &&
        `omc-top's record of its cancels (${this.file}) ${this.main.problem}; the cancels read before still count`,
      this.side.problem &&
        `omc-top's record of its cancels' verdicts (${this.sideFile}) ${this.side.problem}; the verdicts read before still count`,
      this.writeProblem,
    ].filter((p): p is string => !!p);
    const problem = problems.length > 0 ? problems.join('; ') : null;
    const snap = this.cell.getSnapshot();
    const same =
      snap.problem === problem &&
      snap.records.size === records.size &&
      [...records].every(([k, r]) => {
        const had = snap.records.get(k);
        return (
          had?.requestedMs === r.requestedMs &&
          sameSettlement(had.settled, r.settled) &&
          sameFollower(had.followedBy, r.followedBy)
        );
      });
    if (same) return;
    this.cell.set({ version: snap.version + 1, records, problem });
  }
}
