/**
 * OMC's advisory lock for notepad.md, project-memory.json and the wiki
 * (OMC's src/lib/file-lock.ts), spoken exactly:
 * lock path = data path + ".lock", created O_CREAT|O_EXCL mode 0600 holding
 * compact {"pid":<pid>,"timestamp":<epoch ms>}. A held lock is stale only when
 * its mtime is ≥30 s old AND its owner is unknowable or dead. OMC waits up to
 * 5 s for it, so we keep our critical sections to milliseconds and always
 * release — and, unlike OMC, we only unlink a lock that still holds our payload.
 *
 * "Dead" is read as OMC means it: the pid is gone, or the process now under
 * that pid started after the lock was written (the pid was reused), so it
 * cannot be the writer. Every look at the lock goes through the one
 * non-blocking, no-follow, size-capped read (a FIFO or a link to /dev/zero as
 * the lock cannot hang or bloat us), inside the directory held open.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  createExclusive,
  readNoFollowSync,
  resolveUnder,
  statSync,
  toRel,
  withDirUnder,
  type ContainedDir,
} from './safe-fs/index.js';
import { shownPath } from './shown-path.js';
import { startedAfter } from './process-start.js';

export const LOCK_STALE_MS = 30_000;
/** A lock record is ~40 bytes; anything much bigger is not one. */
const LOCK_MAX_BYTES = 4096;

export interface FileLockOptions {
  /** How long to keep retrying a held lock. OMC's own writers use 5 000 ms. */
  timeoutMs?: number;
  retryMs?: number;
  staleMs?: number;
  /** Injected for tests. */
  now?: () => number;
}

/** Who holds a lock, as far as can be told. */
export type LockHolder =
  | { kind: 'live'; pid: number; ageMs: number }
  | { kind: 'dead'; pid: number; ageMs: number; why: string }
  | { kind: 'unknown'; ageMs: number; why: string }
  /** A directory where the lock file belongs: nobody's lock, and no takeover removes it (unlink refuses one). */
  | { kind: 'directory'; ageMs: number; path: string };

export class LockBusyError extends Error {
  readonly holderPid: number | null;
  constructor(
    readonly lockRel: string,
    readonly holder: LockHolder,
    staleMs = LOCK_STALE_MS,
  ) {
    super(describeHolder(lockRel, holder, staleMs));
    this.name = 'LockBusyError';
    this.holderPid = holder.kind === 'unknown' || holder.kind === 'directory' ? null : holder.pid;
  }
}

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.round(s / 360) / 10} h`;
  return `${Math.round(s / 86400)} days`;
}

/** The message after a bounded wait: who holds the lock, since when, what happens next. */
export function describeHolder(lockRel: string, h: LockHolder, staleMs = LOCK_STALE_MS): string {
  const kept = 'Nothing was changed.';
  const takeover = (age: number) =>
    age >= staleMs
      ? 'it will be taken over on the next try'
      : `OMC's rule lets it be taken over in ${formatAge(staleMs - age)}`;
  switch (h.kind) {
    case 'live':
      return h.ageMs < staleMs
        ? `${lockRel} is held by pid ${h.pid}; OMC is writing this file right now. ${kept} The lock was taken ${formatAge(h.ageMs)} ago by a running process; try again in a moment.`
        : `${lockRel} has been held by pid ${h.pid} (running) for ${formatAge(h.ageMs)}, where OMC's writers hold it for milliseconds. ${kept} Delete the lock if no OMC process is writing.`;
    case 'dead':
      return `${lockRel} was left by pid ${h.pid}, which ${h.why}; ${takeover(h.ageMs)}. ${kept}`;
    case 'unknown':
      return `${lockRel} ${h.why}; ${takeover(h.ageMs)}. ${kept}`;
    case 'directory':
      return `${lockRel} ${inTheWayWords(lockRel, h.path)}. ${kept}`;
  }
}

/**
 * A directory at the lock's path, in words (after the lock's name): neither omc-top nor OMC can take it over (both
 * remove a stale lock by unlinking it, which a directory refuses), so OMC's own writers of the file fail, silently,
 * until it is removed.
 */
const inTheWayWords = (lockRel: string, abs: string) =>
  `is a directory where OMC's lock file belongs: no takeover can remove it, so neither omc-top nor OMC's own writers can change ${lockRel.replace(/\.lock$/, '')} until it is removed (rmdir ${shownPath(abs)})`;

/**
 * Why `<dataRel>.lock` keeps every writer out for good, or null: a directory there (one lstat, for a domain's
 * problem line and its save block; a file of any kind is a lock OMC's rule can judge and take over). The words
 * follow the lock's own name.
 */
export function lockInTheWay(root: string, dataRel: string): string | null {
  const rel = `${dataRel}.lock`;
  if (statSync(root, rel)?.isDirectory() !== true) return null;
  const abs = resolveUnder(root, rel);
  return inTheWayWords(toRel(root, abs), abs);
}

function judgeHolder(pid: number, writtenAt: number, ageMs: number): LockHolder {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return { kind: 'dead', pid, ageMs, why: 'is no longer running' };
  }
  if (startedAfter(pid, writtenAt) === true)
    return {
      kind: 'dead',
      pid,
      ageMs,
      why: 'has exited (the pid now belongs to a process started after the lock was written)',
    };
  return { kind: 'live', pid, ageMs };
}

/** Looks at the lock without blocking: who holds it, and whether OMC's rule calls it stale. */
function inspect(
  dir: ContainedDir,
  name: string,
  staleMs: number,
  now: number,
): { holder: LockHolder; stale: boolean } | null {
  const r = readNoFollowSync(dir.at(name), LOCK_MAX_BYTES);
  if (!r.ok) {
    if (r.code === 'missing') return null;
    let ageMs = 0;
    let isDir = false;
    try {
      const st = fs.lstatSync(dir.at(name));
      ageMs = now - st.mtimeMs;
      isDir = st.isDirectory();
    } catch {
      return null;
    }
    // Its path is named by the caller (here it is the held directory's /proc name).
    if (isDir) return { holder: { kind: 'directory', ageMs, path: '' }, stale: false };
    return {
      holder: { kind: 'unknown', ageMs, why: `${r.message.replace(/; not read$/, '')}, not an OMC lock record` },
      stale: ageMs >= staleMs,
    };
  }
  const ageMs = now - r.mtimeMs;
  let pid: number | null = null;
  let timestamp = r.mtimeMs;
  try {
    const v = JSON.parse(r.text) as { pid?: unknown; timestamp?: unknown };
    if (typeof v.pid === 'number' && Number.isSafeInteger(v.pid) && v.pid > 0) pid = v.pid;
    if (typeof v.timestamp === 'number' && Number.isFinite(v.timestamp)) timestamp = Math.min(timestamp, v.timestamp);
  } catch {
    /* unreadable payload */
  }
  if (pid === null)
    return {
      holder: { kind: 'unknown', ageMs, why: 'holds no readable owner pid (empty or cut short)' },
      stale: ageMs >= staleMs,
    };
  const holder = judgeHolder(pid, timestamp, ageMs);
  return { holder, stale: ageMs >= staleMs && holder.kind === 'dead' };
}

export interface HeldLock {
  readonly lockRel: string;
  release(): void;
}

function tryCreate(dir: ContainedDir, name: string, payload: string): boolean {
  let fd: number;
  try {
    fd = createExclusive(dir, name);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    fs.writeSync(fd, payload);
  } catch (e) {
    // A full disk creates the (empty) lock file and then refuses its bytes. Left
    // there, an empty lock reads as "held by someone unknown" for 30 s: our next
    // save and every OMC writer would wait on a lock nobody holds. It is ours: remove it.
    fs.closeSync(fd);
    try {
      fs.unlinkSync(dir.at(name));
    } catch {
      /* already gone */
    }
    throw e;
  }
  fs.closeSync(fd);
  return true;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Acquires `<dataRel>.lock` under root, retrying until `timeoutMs`. */
export async function acquireFileLock(root: string, dataRel: string, opts: FileLockOptions = {}): Promise<HeldLock> {
  const { timeoutMs = 5_000, retryMs = 50, staleMs = LOCK_STALE_MS, now = Date.now } = opts;
  const lockAbs = resolveUnder(root, `${dataRel}.lock`);
  const lockRel = toRel(root, lockAbs);
  const dirRel = path.dirname(lockRel);
  const name = path.basename(lockAbs);
  const payload = JSON.stringify({ pid: process.pid, timestamp: now() });
  const deadline = now() + timeoutMs;
  let reclaimed = false;
  for (;;) {
    const got = withDirUnder(root, dirRel, (dir) => {
      if (tryCreate(dir, name, payload)) return 'ours' as const;
      const seen = inspect(dir, name, staleMs, now());
      if (seen === null) return 'retry' as const; // released between our create and our look
      if (!reclaimed && seen.stale) {
        reclaimed = true;
        try {
          fs.unlinkSync(dir.at(name)); // unlink never follows: a symlink or FIFO as the lock goes, not its target
        } catch {
          /* someone else reclaimed it */
        }
        return 'retry' as const;
      }
      return seen.holder;
    });
    if (got === 'ours') {
      let released = false;
      return {
        lockRel,
        release() {
          if (released) return;
          released = true;
          try {
            // Only remove the lock if it is still ours (another process may have reclaimed it).
            withDirUnder(root, dirRel, (dir) => {
              const r = readNoFollowSync(dir.at(name), LOCK_MAX_BYTES);
              if (r.ok && r.text === payload) fs.unlinkSync(dir.at(name));
            });
          } catch {
            /* already gone */
          }
        },
      };
    }
    // Waiting cannot help: nobody releases a directory.
    if (got !== 'retry' && got.kind === 'directory')
      throw new LockBusyError(lockRel, { ...got, path: lockAbs }, staleMs);
    if (got === 'retry' && now() < deadline) continue;
    if (got === 'retry')
      throw new LockBusyError(lockRel, { kind: 'unknown', ageMs: 0, why: 'keeps appearing and vanishing' }, staleMs);
    if (now() >= deadline) throw new LockBusyError(lockRel, got, staleMs);
    await sleep(retryMs);
  }
}

/** Runs `fn` while holding the lock; always releases. */
export async function withFileLock<T>(
  root: string,
  dataRel: string,
  fn: () => T | Promise<T>,
  opts: FileLockOptions = {},
): Promise<T> {
  const lock = await acquireFileLock(root, dataRel, opts);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
