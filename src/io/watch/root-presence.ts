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

/** gone: removed; back: there again after being gone; replaced: another directory at the path. */
export type RootChange = 'gone' | 'back' | 'replaced';

/** The directory at `root` (device, inode, birth time), or null when there is none. */
export function rootIdentity(root: string): string | null {
  try {
    const st = fs.statSync(root, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}:${st.birthtimeNs}` : null;
  } catch {
    return null;
  }
}

export interface RootPresence {
  readonly present: boolean;
  /** Takes the root as it is now without a change report (the poller's own look); true when presence flipped. */
  adopt(): boolean;
  close(): void;
}

export function watchRootPresence(opts: {
  root: string;
  onChange(change: RootChange): void;
  checkMs?: number;
}): RootPresence {
  const root = opts.root;
  let closed = false;
  let id = rootIdentity(root);
  /** The parent named the root: a replacement even if the identity reads the same. */
  let named = false;
  let namedCheck = false;

  const check = () => {
    if (closed) return;
    const now = rootIdentity(root);
    const forced = named && now !== null && id !== null;
    named = false;
    if (now === id && !forced) return;
    const was = id;
    id = now;
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
      });
    });
    parentWatch.on('error', () => undefined);
  } catch {
    // No watch on the parent: the identity check below and the poll fallback still recover the root.
  }
  const timer = setInterval(check, opts.checkMs ?? ROOT_CHECK_MS);
  timer.unref();

  return {
    get present() {
      return id !== null;
    },
    adopt() {
      const was = id !== null;
      id = rootIdentity(root);
      named = false;
      return was !== (id !== null);
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
