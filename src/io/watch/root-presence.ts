/**
 * Whether the watched root is there, and whether it is still the directory the
 * watches were set on.
 *
 * The root itself can be deleted and re-created (a `rm -rf .omc`, a branch
 * switch, a restore, OMC's own cleanup). Its watches die with it, so its parent
 * is watched for it to come back. Removed and re-created within milliseconds,
 * it is "present" before and after, and ext4 gives the new directory the inode
 * the old one just freed: so the root is known by its identity (device, inode
 * and birth time), and an event in the parent that names the root (created,
 * removed or renamed) counts as a replacement even when the identity looks the
 * same (a file system without birth times). A cheap periodic check (one stat)
 * catches a replacement whose parent event was missed.
 *
 * When the kernel gives no watches at all, the poller stands in: it rescans on
 * a fixed cadence and follows the root's presence for the status line.
 */
import fs from 'node:fs';
import path from 'node:path';

export const POLL_INTERVAL_MS = 1_000;
/** How often the root's identity is checked (one stat): the bound on a missed replacement. */
export const ROOT_CHECK_MS = 2_000;

/**
 * gone: no directory there any more (or something else now stands in its place: `absence` says what); back: there
 * again after being gone; replaced: another directory at the path.
 */
export type RootChange = 'gone' | 'back' | 'replaced';

/**
 * What stands at the root's path when it is not a directory: nothing (`missing`: moved away or removed, or never
 * made), something else (`not-a-directory`: a file in its place, a FIFO, a symlink to a file), or a path that
 * cannot be looked at (`unreachable`: a parent this user may not search). Said once, for the whole root: the
 * files under it are not "missing" one by one.
 */
export type RootAbsence =
  | { code: 'missing' }
  | { code: 'not-a-directory'; kind: string }
  | { code: 'symlink-loop' }
  | { code: 'unreachable'; errno: string };

/**
 * The words for a root path that is a symlink loop (ELOOP), the same on every surface: the CLI's "looked in" lines
 * and `status` (store/root.ts rootPathFault), and the monitor's problem line and message while it waits.
 */
export const SYMLINK_LOOP = 'is a symlink loop';

type Look = { id: string; absence: null } | { id: null; absence: RootAbsence };

/** One stat of the root: its identity (device, inode, birth time), or what is there instead. */
function look(root: string): Look {
  try {
    const st = fs.statSync(root, { bigint: true });
    if (st.isDirectory()) return { id: `${st.dev}:${st.ino}:${st.birthtimeNs}`, absence: null };
    return { id: null, absence: { code: 'not-a-directory', kind: st.isFile() ? 'a file' : nonDirectoryKind(st) } };
  } catch (e) {
    const errno = (e as NodeJS.ErrnoException)?.code ?? 'error';
    // ENOTDIR: a component above it is a file, so there is no root there either.
    if (errno === 'ENOENT' || errno === 'ENOTDIR') return { id: null, absence: { code: 'missing' } };
    if (errno === 'ELOOP') return { id: null, absence: { code: 'symlink-loop' } };
    return { id: null, absence: { code: 'unreachable', errno } };
  }
}

function nonDirectoryKind(st: fs.BigIntStats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a directory';
}

/** The directory at `root` (device, inode, birth time), or null when there is none. */
export function rootIdentity(root: string): string | null {
  return look(root).id;
}

/** What is at `root` instead of a directory, or null when it is one. */
export function rootAbsence(root: string): RootAbsence | null {
  return look(root).absence;
}

/** The same thing at the root's path (both null: the root is there). */
export const sameAbsence = (a: RootAbsence | null, b: RootAbsence | null): boolean =>
  a === b || (a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));

export interface RootPresence {
  readonly present: boolean;
  /** What is at the root's path instead of it (null while it is there). */
  readonly absence: RootAbsence | null;
  /**
   * Takes the root as it is now without a change report (the poller's own look); true when presence flipped or
   * what stands in its place changed.
   */
  adopt(): boolean;
  /** Looks at the root now (reporting a change as the periodic look would); true when it is there. */
  recheck(): boolean;
  close(): void;
}

export function watchRootPresence(opts: {
  root: string;
  onChange(change: RootChange): void;
  checkMs?: number;
}): RootPresence {
  const root = opts.root;
  let closed = false;
  const first = look(root);
  let id = first.id;
  let absence = first.absence;
  /** The parent named the root: a replacement even if the identity reads the same. */
  let named = false;
  let namedCheck = false;

  const check = () => {
    if (closed) return;
    const seen = look(root);
    const now = seen.id;
    const forced = named && now !== null && id !== null;
    named = false;
    if (now === id && !forced && sameAbsence(seen.absence, absence)) return;
    const was = id;
    id = now;
    absence = seen.absence;
    // Still gone, but something else stands there now (a file put where it was): gone again, in other words.
    if (now === null) opts.onChange('gone');
    else opts.onChange(was === null ? 'back' : 'replaced');
  };

  let parentWatch: fs.FSWatcher | null = null;
  try {
    parentWatch = fs.watch(path.dirname(root), { persistent: false }, (ev, name) => {
      if (name !== null && name !== path.basename(root)) return;
      if (ev === 'rename' && name !== null) named = true;
      // One look per batch of parent events (a delete and a create arrive together): one restart, not two.
      if (namedCheck) return;
      namedCheck = true;
      setImmediate(() => {
        namedCheck = false;
        check();
        holdWhileAbsent();
      });
    });
    parentWatch.on('error', () => undefined);
  } catch {
    // No watch on the parent: the identity check below and the poll fallback still recover the root.
  }
  const timer = setInterval(() => {
    check();
    holdWhileAbsent();
  }, opts.checkMs ?? ROOT_CHECK_MS);
  /**
   * While the root is there its watches keep the process alive; while it is not, this look is the only thing
   * watching for it (the parent's watch may be missing, and holds nothing): a process with nothing else to do
   * (`watch --json`) must stay and wait for the root, not end because its watches went with it.
   */
  const holdWhileAbsent = () => {
    if (id === null && !closed) timer.ref();
    else timer.unref();
  };
  holdWhileAbsent();

  return {
    get present() {
      return id !== null;
    },
    get absence() {
      return absence;
    },
    recheck() {
      check();
      holdWhileAbsent();
      return id !== null;
    },
    adopt() {
      const was = absence;
      const seen = look(root);
      id = seen.id;
      absence = seen.absence;
      named = false;
      holdWhileAbsent();
      return !sameAbsence(was, absence);
    },
    close() {
      closed = true;
      clearInterval(timer);
      parentWatch?.close();
    },
  };
}

/** The polling fallback: a rescan every interval, with the root's presence followed for the status line. */
export function pollRoot(opts: {
  presence: RootPresence;
  intervalMs?: number;
  onTick(presenceChanged: boolean): void;
}): { stop(): void } {
  const timer = setInterval(() => opts.onTick(opts.presence.adopt()), opts.intervalMs ?? POLL_INTERVAL_MS);
  return { stop: () => clearInterval(timer) };
}
