/**
 * OMC 5.5's `<file>.mutation.lock` for mode-state files, spoken with the
 * owner-file protocol (5.5 addendum §9.3), which OMC's SQLite-backed
 * processes honour too because they check the same artifact:
 *
 * - owner record = compact `{"version":1,"pid","processStart","createdAt","nonce"}`
 *   with our *exact* process-start identity (a wrong one gets the lock
 *   reclaimed from under us);
 * - publish by writing `<lock>.<pid>.<nonce>.tmp` (O_EXCL, 0600, fsync) and
 *   hard-linking it to `<lock>` (EEXIST = held), then removing the temp;
 * - a held lock whose owner process is gone (or has another start identity) is
 *   reclaimed by renaming it aside and re-checking it is still that owner;
 * - a lock we cannot verify (malformed, unknown identity) is never touched;
 * - release only if the lock still carries our nonce.
 *
 * Every look at, creation, link, rename and unlink of the lock happens in its
 * directory held open (ContainedDir: no symlink on the way out of the root,
 * reads that cannot block on a FIFO or grow on /dev/zero).
 *
 * We hold it for milliseconds (re-read, compare, write/delete, release). We
 * never create or open `.state-mutation-locks.db*`, and never take the cancel
 * signal's own lock: a Stop hook that cannot lock the signal ignores it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  OutsideRootError,
  createExclusive,
  discardTemp,
  readNoFollowSync,
  resolveUnder,
  toRel,
  withDirUnder,
  type ContainedDir,
} from '../../io/safe-fs/index.js';
import { formatAge } from '../../io/file-lock.js';
import { checkLockOwnerText } from './hook-rules.js';
import { ownStartIdentity, processStartIdentity } from '../../io/process-start.js';

/** OMC's own contention budget: 50 attempts, 10 ms apart. */
export const LOCK_ATTEMPTS = 50;
export const LOCK_RETRY_MS = 10;

export type StateLockFailure = 'busy' | 'unverifiable' | 'platform';

export class StateLockError extends Error {
  constructor(
    readonly kind: StateLockFailure,
    readonly lockRel: string,
    message: string,
    /**
     * Why, without the message's "Nothing was changed": for a caller that had already written something of its own
     * (a cancel's signal, execute.ts) and says so itself.
     */
    readonly reason: string = message,
  ) {
    super(message);
    this.name = 'StateLockError';
  }
}

interface Owner {
  version: 1;
  pid: number;
  processStart: string;
  createdAt: string;
  nonce: string;
}

export interface HeldStateLock {
  readonly lockRel: string;
  /** Removes the lock if it still carries our nonce; false when someone else's record is there. */
  release(): boolean;
}

/** An owner record is ~150 bytes. */
const OWNER_MAX_BYTES = 4096;

function readOwner(abs: string): Owner | 'absent' | 'malformed' {
  const r = readNoFollowSync(abs, OWNER_MAX_BYTES);
  if (!r.ok) return r.code === 'missing' ? 'absent' : 'malformed';
  if (!checkLockOwnerText(r.text).ok) return 'malformed';
  return JSON.parse(r.text) as Owner;
}

const sameOwner = (a: Owner, b: Owner) => a.pid === b.pid && a.processStart === b.processStart && a.nonce === b.nonce;

function inode(abs: string): { dev: number; ino: number } | null {
  try {
    const st = fs.lstatSync(abs);
    return st.isFile() ? { dev: st.dev, ino: st.ino } : null;
  } catch {
    return null;
  }
}

/** Moves a dead owner's lock aside, re-checks it is the one we inspected, deletes it; restores anything else. */
function reclaimDead(dir: ContainedDir, name: string, seen: Owner, seenIno: { dev: number; ino: number }): void {
  const abs = dir.at(name);
  const aside = dir.at(`${name}.reclaim.${process.pid}.${randomUUID()}`);
  try {
    fs.renameSync(abs, aside);
  } catch {
    return; // vanished or replaced meanwhile: the next attempt looks again
  }
  const moved = readOwner(aside);
  const movedIno = inode(aside);
  if (
    moved !== 'absent' &&
    moved !== 'malformed' &&
    sameOwner(moved, seen) &&
    movedIno &&
    movedIno.dev === seenIno.dev &&
    movedIno.ino === seenIno.ino
  ) {
    try {
      fs.unlinkSync(aside);
      return;
    } catch {
      /* fall through to restoring */
    }
  }
  // A newer owner got in between: put its record back unless another one already took the name.
  try {
    fs.linkSync(aside, abs);
  } catch {
    /* the name is taken again: leave it */
  }
  try {
    fs.unlinkSync(aside);
  } catch {
    /* already gone */
  }
}

function tryPublish(dir: ContainedDir, name: string, owner: Owner): boolean {
  const tmpName = `${name}.${owner.pid}.${owner.nonce}.tmp`;
  const tmp = dir.at(tmpName);
  const abs = dir.at(name);
  let fd: number | null = null;
  try {
    fd = createExclusive(dir, tmpName);
    fs.writeSync(fd, JSON.stringify(owner));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.linkSync(tmp, abs);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    // Success or not, the temp name goes: on success the record lives on under `abs` (a hard link).
    discardTemp(fd, tmp);
  }
}

/** " The lock was taken 3 s ago by a running process." from the owner's createdAt, when it reads as a time. */
function heldFor(o: Owner): string {
  const t = Date.parse(o.createdAt);
  return Number.isFinite(t)
    ? ` The lock was taken ${formatAge(Date.now() - t)} ago by a running process.`
    : ' Its process is running.';
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Past this, a held lock is not "a change right now": OMC's own changes under it take milliseconds. */
const LONG_HELD_MS = 5_000;

/** Who holds the lock and for how long: a change in progress, or (held long) just how long, no guess at why. */
/** The busy lock in words: the message (nothing was changed), and the reason alone for a caller that wrote already. */
function busyWords(lockRel: string, o: Owner | null): { message: string; reason: string } {
  const t = o ? Date.parse(o.createdAt) : NaN;
  if (o && Number.isFinite(t) && Date.now() - t >= LONG_HELD_MS) {
    const reason = `${lockRel} has been held by pid ${o.pid} (running) for ${formatAge(Date.now() - t)}`;
    return { message: `${reason}. Nothing was changed; try again once it is released.`, reason };
  }
  const held = `${lockRel} is held${o ? ` by pid ${o.pid}` : ''}: OMC is changing this file right now`;
  return {
    message: `${held}. Nothing was changed; try again.${o ? heldFor(o) : ''}`,
    reason: `${held}${o ? `.${heldFor(o).replace(/\.$/, '')}` : ''}`,
  };
}

/**
 * Acquires `<fileRel>.mutation.lock` under root. Throws StateLockError when
 * the lock stays held (busy), cannot be verified, or we cannot state our own
 * process identity on this platform.
 */
export async function acquireStateLock(
  root: string,
  fileRel: string,
  opts: { attempts?: number; retryMs?: number } = {},
): Promise<HeldStateLock> {
  const attempts = opts.attempts ?? LOCK_ATTEMPTS;
  const retryMs = opts.retryMs ?? LOCK_RETRY_MS;
  const abs = resolveUnder(root, `${fileRel}.mutation.lock`);
  const lockRel = toRel(root, abs);
  const dirRel = path.dirname(lockRel);
  const name = path.basename(abs);
  // The lock lands beside the state file, in that directory held open: one whose way leaves the root is refused.
  const inDir = <T>(fn: (dir: ContainedDir) => T): T => {
    try {
      return withDirUnder(root, dirRel, fn);
    } catch (e) {
      if (e instanceof OutsideRootError)
        throw new StateLockError(
          'unverifiable',
          lockRel,
          `refusing to lock ${lockRel}: its directory leaves the .omc root`,
        );
      throw e;
    }
  };
  inDir(() => undefined);

  const processStart = ownStartIdentity();
  if (processStart === null || processStart === 'absent') {
    throw new StateLockError(
      'platform',
      lockRel,
      `cannot take OMC's state lock on ${process.platform}: omc-top cannot state its own process start time the way OMC checks it. Nothing was changed.`,
      `cannot take OMC's state lock on ${process.platform}: omc-top cannot state its own process start time the way OMC checks it`,
    );
  }
  let lastHolder: Owner | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const owner: Owner = {
      version: 1,
      pid: process.pid,
      processStart,
      createdAt: new Date().toISOString(),
      nonce: randomUUID(),
    };
    const published = inDir((dir) => {
      if (tryPublish(dir, name, owner)) return true;
      return { held: readOwner(dir.at(name)), ino: inode(dir.at(name)) };
    });
    if (published === true) {
      let released = false;
      return {
        lockRel,
        release() {
          if (released) return true;
          released = true;
          try {
            return inDir((dir) => {
              const cur = readOwner(dir.at(name));
              if (cur === 'absent' || cur === 'malformed' || !sameOwner(cur, owner)) return false;
              fs.unlinkSync(dir.at(name));
              return true;
            });
          } catch {
            return false;
          }
        },
      };
    }
    const held = published.held;
    if (held === 'absent') continue;
    if (held === 'malformed') {
      throw new StateLockError(
        'unverifiable',
        lockRel,
        `${lockRel} is not a valid OMC lock record: OMC refuses every locked change to this file until it is deleted, and so does omc-top. Nothing was changed.`,
        `${lockRel} is not a valid OMC lock record: OMC refuses every locked change to this file until it is deleted, and so does omc-top`,
      );
    }
    const live = processStartIdentity(held.pid);
    if (live === null) {
      throw new StateLockError(
        'unverifiable',
        lockRel,
        `${lockRel} is held by pid ${held.pid}, whose liveness cannot be checked. Nothing was changed.`,
        `${lockRel} is held by pid ${held.pid}, whose liveness cannot be checked`,
      );
    }
    if (live === held.processStart) {
      lastHolder = held;
      if (attempt + 1 < attempts) await sleep(retryMs);
      continue;
    }
    const ino = published.ino;
    if (ino) inDir((dir) => reclaimDead(dir, name, held, ino));
  }
  const busy = busyWords(lockRel, lastHolder);
  throw new StateLockError('busy', lockRel, busy.message, busy.reason);
}

/** Runs `fn` while holding the file's mutation lock; always releases. */
export async function withStateLock<T>(
  root: string,
  fileRel: string,
  fn: () => T,
  opts?: { attempts?: number; retryMs?: number },
): Promise<T> {
  const lock = await acquireStateLock(root, fileRel, opts);
  try {
    return fn();
  } finally {
    lock.release();
  }
}
