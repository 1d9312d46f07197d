/**
 * OMC's advisory lock for notepad.md, project-memory.json and the wiki
 * (src/lib/file-lock.ts; research/omc-contract.md §9.2), spoken exactly:
 * lock path = data path + ".lock", created O_CREAT|O_EXCL mode 0600 holding
 * compact {"pid":<pid>,"timestamp":<epoch ms>}. A held lock is stale only when
 * its mtime is ≥30 s old AND its owner is unknowable or dead. OMC waits up to
 * 5 s for it, so we keep our critical sections to milliseconds and always
 * release — and, unlike OMC, we only unlink a lock that still holds our payload.
 */
import fs from 'node:fs';
import { resolveUnder, toRel } from './fsx.js';

export const LOCK_STALE_MS = 30_000;

export interface FileLockOptions {
  /** How long to keep retrying a held lock. OMC's own writers use 5 000 ms. */
  timeoutMs?: number;
  retryMs?: number;
  staleMs?: number;
  /** Injected for tests. */
  now?: () => number;
}

export class LockBusyError extends Error {
  constructor(
    readonly lockRel: string,
    readonly holderPid: number | null,
  ) {
    super(
      `${lockRel} is held${holderPid ? ` by pid ${holderPid}` : ''}; OMC is writing this file right now. Nothing was changed; try again.`,
    );
    this.name = 'LockBusyError';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(lockAbs: string): { pid: number | null; parsed: boolean } {
  try {
    const v = JSON.parse(fs.readFileSync(lockAbs, 'utf8')) as { pid?: unknown };
    return { pid: typeof v.pid === 'number' && Number.isSafeInteger(v.pid) && v.pid > 0 ? v.pid : null, parsed: true };
  } catch {
    return { pid: null, parsed: false };
  }
}

/** OMC's staleness rule: old enough AND (payload unreadable, no pid, or pid dead). */
function isStale(lockAbs: string, staleMs: number, now: number): boolean {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(lockAbs).mtimeMs;
  } catch {
    return false;
  }
  if (now - mtimeMs < staleMs) return false;
  const { pid, parsed } = readHolder(lockAbs);
  if (!parsed || pid === null) return true;
  return !pidAlive(pid);
}

export interface HeldLock {
  readonly lockRel: string;
  release(): void;
}

function tryCreate(lockAbs: string, payload: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockAbs, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
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
      fs.unlinkSync(lockAbs);
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
  const payload = JSON.stringify({ pid: process.pid, timestamp: now() });
  const deadline = now() + timeoutMs;
  let reclaimed = false;
  for (;;) {
    if (tryCreate(lockAbs, payload)) {
      let released = false;
      return {
        lockRel,
        release() {
          if (released) return;
          released = true;
          try {
            // Only remove the lock if it is still ours (another process may have reclaimed it).
            if (fs.readFileSync(lockAbs, 'utf8') === payload) fs.unlinkSync(lockAbs);
          } catch {
            /* already gone */
          }
        },
      };
    }
    if (!reclaimed && isStale(lockAbs, staleMs, now())) {
      reclaimed = true;
      try {
        fs.unlinkSync(lockAbs);
      } catch {
        /* someone else reclaimed it */
      }
      continue;
    }
    if (now() >= deadline) throw new LockBusyError(lockRel, readHolder(lockAbs).pid);
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
