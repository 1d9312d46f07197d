/**
 * Watches the .omc tree and turns raw file events into coalesced batches.
 *
 * chokidar 5 drops a second `change` to the same file inside 50 ms and never
 * emits a trailing one (research/perf-floor.md §1): OMC's Stop hook rewrites a
 * state file and a moment later our reader would be left showing the old
 * value. So every event is delivered twice: at once (leading edge, in one
 * batch per macrotask) and again TRAILING_MS after the last event for that
 * path (trailing edge), when the file is re-read whatever chokidar said.
 *
 * chokidar is asked to watch directories only. A directory watch already
 * reports every change to the files in it (the `raw` event names the file),
 * so watching each file as well — chokidar's default — would triple the
 * inotify watches and add ~75 MB at 2,000 sessions (perf-floor.md §2) for
 * nothing. Files are read when their directory says they changed.
 *
 * Directories whose entries the domains name themselves — a session's
 * `state/sessions/<id>/`, `state/sessions/` itself, `wiki/` — are "leaves":
 * they are watched with one plain fs.watch each, and chokidar is told to skip
 * them. Measured at 2,000 session directories, chokidar's bookkeeping costs
 * ~40 MB of RSS even for directories alone, fs.watch ~1 MB; and chokidar's
 * walk of `state/sessions` offered all 10,000 entries of a 10,000-session tree
 * to `ignored` (an lstat each) and was the last thing start-up waited for.
 * Everything else (the skeleton, notepad, memory, team runtime) stays with
 * chokidar. A leaf appearing or vanishing is seen by its parent's watch (a
 * chokidar directory or another leaf: session directories are leaves inside
 * the `state/sessions` leaf), and a leaf that appears is walked for the leaves
 * already inside it.
 *
 * If the kernel will not give us watches (ENOSPC: inotify limit, EMFILE) or
 * the user asks for it, we poll instead and say so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { WatchEvent, WatchEventType } from './events.js';

export const TRAILING_MS = 60;
export const POLL_INTERVAL_MS = 1_000;
/** How often the root's identity is checked (one stat): the bound on a missed replacement. */
export const ROOT_CHECK_MS = 2_000;

export type WatchMode = 'starting' | 'events' | 'polling' | 'waiting' | 'off';

export interface TreeWatcherOptions {
  root: string;
  wants(rel: string, isDir: boolean | undefined): boolean;
  onEvents(events: WatchEvent[], edge: 'leading' | 'trailing'): void;
  /**
   * Called on every poll tick in polling mode, when the root comes back or is replaced, and once after the
   * event watcher is ready unless `onReady` is given.
   */
  onRescan(): void;
  /**
   * Replaces the rescan at the first `ready`: for a caller that read while the watches were being set up and
   * settles that window itself (the store's progressive start: `OmcStore.startProgressively`).
   */
  onReady?(): void;
  onMode(mode: WatchMode, detail: string): void;
  /** 'auto' = events, falling back to polling; 'poll' = polling from the start. */
  mode?: 'auto' | 'poll';
  /** For tests: replaces chokidar's watch(). */
  watchImpl?: typeof watch;
  /** Directories watched with a plain fs.watch instead of chokidar (see above). */
  isLeafDir?(rel: string): boolean;
  /** Leaves whose subdirectories may be leaves too (`state/sessions`: its session directories). */
  holdsLeaves?(rel: string): boolean;
}

export interface TreeWatcher {
  close(): Promise<void>;
  readonly mode: WatchMode;
  /**
   * Watch one leaf directory now, before the caller lists it: every change after this call is an event, every
   * file before it is in the caller's listing, so nothing falls between. No event is sent for the attach itself
   * (the caller is reading the directory). False when leaves are not watched (polling, closed, not a leaf).
   */
  watchLeaf(rel: string): boolean;
}

/** The leaf a plain fs.watch belongs to (rel), kept on the watcher itself. */
const LEAF_REL = Symbol('leaf');
type LeafWatcher = fs.FSWatcher & { [LEAF_REL]?: string };

const WATCH_FAILURE_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'ENOSYS', 'EPERM', 'EACCES']);

export function startTreeWatcher(opts: TreeWatcherOptions): TreeWatcher {
  const root = path.resolve(opts.root);
  let mode: WatchMode = 'starting';
  let chok: FSWatcher | null = null;
  let pollTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const leading: WatchEvent[] = [];
  let leadingScheduled = false;
  const trailing = new Map<string, { type: WatchEventType; due: number }>();
  let trailingTimer: NodeJS.Timeout | null = null;

  const setMode = (m: WatchMode, detail: string) => {
    mode = m;
    opts.onMode(m, detail);
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
    if (due.length > 0) opts.onEvents(due, 'trailing');
    if (nextDue !== Infinity) trailingTimer = setTimeout(flushTrailing, Math.max(1, nextDue - now));
  };

  /** `trailing: false` for an addDir whose directory was watched before it is listed (see syncLeaf). */
  const push = (type: WatchEventType, abs: string, opt: { trailing?: boolean } = {}) => {
    if (closed) return;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel.startsWith('..')) return;
    leading.push({ type, rel });
    if (!leadingScheduled) {
      leadingScheduled = true;
      setImmediate(() => {
        leadingScheduled = false;
        if (closed) return;
        const batch = leading.splice(0);
        opts.onEvents(batch, 'leading');
      });
    }
    // Removals need no second look; content events get a trailing re-read.
    if (opt.trailing === false) {
      trailing.delete(rel);
    } else if (type === 'add' || type === 'change' || type === 'addDir') {
      trailing.set(rel, { type: type === 'addDir' ? 'addDir' : 'change', due: Date.now() + TRAILING_MS });
      if (!trailingTimer) trailingTimer = setTimeout(flushTrailing, TRAILING_MS);
    } else {
      trailing.delete(rel);
    }
  };

  const startPolling = (why: string) => {
    if (closed || pollTimer) return;
    closeLeaves();
    if (chok) {
      const c = chok;
      chok = null;
      void c.close().catch(() => undefined);
    }
    setMode('polling', why);
    opts.onRescan();
    pollTimer = setInterval(() => {
      if (closed) return;
      const present = fs.existsSync(root);
      if (present !== rootPresent) {
        rootPresent = present;
        rootId = identity();
        setMode('polling', present ? why : `${root} was removed; polling for it to come back`);
      }
      opts.onRescan();
    }, POLL_INTERVAL_MS);
  };

  const toRel = (p: string) => path.relative(root, p).split(path.sep).join('/');
  /** `abs` is `root` joined with `rel` (POSIX: concatenation, not path.relative per entry of a 10,000-entry walk). */
  const absOf = (rel: string) => (rel === '' ? root : path.join(root, ...rel.split('/')));
  const isLeaf = (rel: string) => opts.isLeafDir?.(rel) ?? false;
  // Directories we need are watched; files never are, and leaves are ours (see above).
  const ignored = (p: string, stats?: { isDirectory(): boolean }) => {
    const rel = toRel(p);
    if (rel.startsWith('..') || isLeaf(rel)) return true;
    if (stats) return !stats.isDirectory() || !opts.wants(rel, true);
    return !(opts.wants(rel, true) || opts.wants(rel, false));
  };

  /** A file (or leaf directory) named by a directory watch changed, appeared or vanished. */
  const onEntry = (abs: string) => {
    const rel = toRel(abs);
    if (rel.startsWith('..')) return;
    if (isLeaf(rel)) {
      syncLeaf(rel, abs);
      return;
    }
    if (!opts.wants(rel, false)) return;
    // Domains see the usual event kinds: gone files as unlink, everything else as change.
    push(fs.existsSync(abs) ? 'change' : 'unlink', abs);
  };

  /** A watch that failed for lack of watches (or of support) falls back to polling, saying why; true when it did. */
  const pollOnWatchFailure = (err: unknown): boolean => {
    const code = (err as NodeJS.ErrnoException)?.code ?? '';
    if (!WATCH_FAILURE_CODES.has(code)) return false;
    startPolling(
      code === 'ENOSPC'
        ? 'inotify watch limit reached (ENOSPC): polling every 1 s; raise fs.inotify.max_user_watches to go live'
        : `file watching failed (${code}): polling every 1 s`,
    );
    return true;
  };

  const leaves = new Map<string, fs.FSWatcher>();
  // One listener for every leaf, told which leaf by the watcher it is called on (EventEmitter's `this`): two
  // closures and their scopes per session directory were ~0.2 KB each at 10,000 sessions.
  function onLeafChange(this: LeafWatcher, _ev: string, name: string | Buffer | null): void {
    const rel = this[LEAF_REL];
    if (rel === undefined) return;
    const abs = absOf(rel);
    if (name) onEntry(path.join(abs, name.toString()));
    else push('addDir', abs); // the kernel lost track: re-read the whole directory
  }
  function onLeafError(this: LeafWatcher): void {
    this.close();
    const rel = this[LEAF_REL];
    if (rel !== undefined && leaves.get(rel) === this) leaves.delete(rel);
  }
  /** Leaves with leaves inside them (`state/sessions`): when one goes, the watches inside it go too. */
  const parentsOfLeaves = new Set<string>();
  /**
   * Leaves holding leaves that a caller attached with watchLeaf() before listing them: that caller watches each
   * leaf inside before listing it too (the progressive start), so the walk at `ready` does not (it would attach,
   * and announce, every session directory the sliced read has not reached yet, in one long batch).
   */
  const ownedParents = new Set<string>();
  /** The inode each leaf holding leaves was attached on. */
  const parentInodes = new Map<string, number>();
  /** One fs.watch on a leaf directory. False when none could be set (then we may be polling now). */
  const attachLeaf = (rel: string, abs: string): boolean => {
    if (leaves.has(rel)) return true;
    // A leaf holding leaves is one directory, watched before anything knows what is at its path: a file there
    // (state/sessions replaced by one) must not get the watch, or the directory coming back would be a no-op.
    // Its inode is kept, so a different directory at the same path is seen as one (see syncLeaf).
    let ino: number | null = null;
    if (opts.holdsLeaves?.(rel)) {
      try {
        const st = fs.lstatSync(abs);
        if (!st.isDirectory()) return false;
        ino = st.ino;
      } catch {
        return false;
      }
    }
    try {
      const w = fs.watch(abs, { persistent: false }, onLeafChange) as LeafWatcher;
      w[LEAF_REL] = rel;
      w.on('error', onLeafError);
      leaves.set(rel, w);
      if (ino !== null) parentInodes.set(rel, ino);
      const slash = rel.lastIndexOf('/');
      if (slash > 0 && leaves.has(rel.slice(0, slash))) parentsOfLeaves.add(rel.slice(0, slash));
      return true;
    } catch (err) {
      pollOnWatchFailure(err);
      return false;
    }
  };
  /** Closes one leaf's watch and those of the leaves inside it. */
  const dropLeaf = (rel: string) => {
    leaves.get(rel)?.close();
    leaves.delete(rel);
    ownedParents.delete(rel);
    parentInodes.delete(rel);
    if (!parentsOfLeaves.delete(rel)) return;
    const prefix = `${rel}/`;
    for (const [r, w] of leaves)
      if (r.startsWith(prefix)) {
        w.close();
        leaves.delete(r);
        parentsOfLeaves.delete(r);
      }
  };
  /**
   * Attach or drop the fs.watch of one leaf directory, telling the domains as addDir / unlinkDir. A leaf that
   * appears is walked for the leaves already inside it (`walk: false` when the caller is that walk).
   */
  const syncLeaf = (rel: string, abs: string, walk = true) => {
    let isDir = false;
    let ino = -1;
    try {
      const st = fs.lstatSync(abs);
      isDir = st.isDirectory();
      ino = st.ino;
    } catch {
      isDir = false;
    }
    let have = leaves.get(rel);
    if (have && isDir && parentInodes.has(rel) && parentInodes.get(rel) !== ino) {
      // Another directory at this path (moved away and another moved in): its watch is on the old one.
      dropLeaf(rel);
      push('unlinkDir', abs);
      have = undefined;
    }
    if (isDir && opts.wants(rel, true)) {
      if (!have) {
        if (!attachLeaf(rel, abs) && pollTimer) return;
        // Watched before the domain lists it (on the leading edge): a file landing after the attach is an
        // event, one before it is in the listing, so no trailing re-list is needed.
        push('addDir', abs, { trailing: false });
        // A `mkdir -p state/sessions/<id>` makes the session directory before any watch on state/sessions.
        if (walk && (opts.holdsLeaves?.(rel) ?? false)) attachLeaves(abs);
      }
      return;
    }
    if (have) {
      dropLeaf(rel);
      push('unlinkDir', abs);
    } else {
      // Not (or no longer) a watchable directory: let the domains look at it.
      push(fs.existsSync(abs) ? 'change' : 'unlink', abs);
    }
  };

  /**
   * Every leaf under the directories chokidar watches: found when watching starts, and under each directory
   * that appears later (a `mkdir -p state/sessions/<id>` makes the leaf before any watch on its parent
   * exists, so no event would ever name it; chokidar ignores leaves, so it does not report them either).
   */
  const attachLeaves = (from = root) => {
    const walk = (relDir: string, depth: number) => {
      if (depth > 4 || closed || pollTimer) return;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(absOf(relDir), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        if (!e.isDirectory()) continue;
        const rel = relDir === '' ? e.name : `${relDir}/${e.name}`;
        if (isLeaf(rel)) {
          if (!leaves.has(rel)) syncLeaf(rel, absOf(rel), false);
          // Leaves inside a leaf (session directories in state/sessions) are found by the same walk.
          if (leaves.has(rel) && !ownedParents.has(rel) && (opts.holdsLeaves?.(rel) ?? false)) walk(rel, depth + 1);
        } else if (opts.wants(rel, true)) walk(rel, depth + 1);
      }
    };
    const rel = toRel(from);
    if (rel.startsWith('..')) return;
    walk(rel, rel === '' ? 0 : rel.split('/').length);
  };
  const closeLeaves = () => {
    for (const w of leaves.values()) w.close();
    leaves.clear();
    parentsOfLeaves.clear();
    ownedParents.clear();
    parentInodes.clear();
  };

  let ready = false;
  let firstReady = true;
  const startChokidar = () => {
    ready = false;
    try {
      const c = (opts.watchImpl ?? watch)(root, {
        ignoreInitial: true,
        followSymlinks: false,
        ignored,
        persistent: true,
      });
      chok = c;
      c.on('addDir', (p) => {
        push('addDir', p);
        // Before ready, the initial walk attaches everything; after it, only the new directory's subtree.
        if (ready) attachLeaves(p);
      });
      // A directory watch names the entry that changed: a file written, renamed over, created or removed.
      c.on('raw', (_event: unknown, name: string | null, details: unknown) => {
        const dir = (details as { watchedPath?: string } | undefined)?.watchedPath;
        if (!dir || !name) return;
        onEntry(path.join(dir, name));
      });
      c.on('unlinkDir', (p) => push('unlinkDir', p));
      c.on('ready', () => {
        if (closed || pollTimer || chok !== c) return;
        ready = true;
        attachLeaves();
        if (pollTimer) return;
        setMode('events', 'watching for changes');
        // Anything written while the watches were being set up is picked up here.
        const onFirstReady = firstReady ? opts.onReady : undefined;
        firstReady = false;
        if (onFirstReady) onFirstReady();
        else opts.onRescan();
      });
      c.on('error', (err: unknown) => {
        pollOnWatchFailure(err);
      });
    } catch (err) {
      startPolling(
        `file watching unavailable (${(err as NodeJS.ErrnoException)?.code ?? String(err)}): polling every 1 s`,
      );
    }
  };

  // The root itself can be deleted and re-created (a `rm -rf .omc`, a branch
  // switch, a restore, OMC's own cleanup). Its watches die with it, so we watch
  // its parent for it to come back, and start over when it does. Removed and
  // re-created within milliseconds, it is "present" before and after: so the
  // root is known by its identity (device, inode), not its presence, and a
  // cheap periodic check (one stat) catches a replacement whose parent event was
  // missed or coalesced. A replaced root means every watch is on a dead inode:
  // restart them all and rescan, and say so.
  const identity = (): string | null => {
    try {
      const st = fs.statSync(root);
      return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
    } catch {
      return null;
    }
  };
  let rootId = identity();
  let rootPresent = rootId !== null;
  let parentWatch: fs.FSWatcher | null = null;
  const stopEventWatches = () => {
    closeLeaves();
    if (chok) {
      const c = chok;
      chok = null;
      void c.close().catch(() => undefined);
    }
  };
  const checkRoot = () => {
    if (closed) return;
    const id = identity();
    if (id === rootId) return;
    const replaced = id !== null && rootId !== null;
    rootId = id;
    rootPresent = id !== null;
    if (!rootPresent) {
      stopEventWatches();
      if (!pollTimer) setMode('waiting', `${root} was removed; waiting for it to come back`);
      opts.onRescan();
    } else {
      if (!pollTimer) {
        stopEventWatches();
        setMode(
          'starting',
          replaced
            ? `${root} was replaced (restored or switched); every watch restarted and the tree re-read`
            : `${root} is back; watching again`,
        );
        startChokidar();
      }
      opts.onRescan();
    }
  };
  try {
    parentWatch = fs.watch(path.dirname(root), { persistent: false }, (_ev, name) => {
      if (name === null || name === path.basename(root)) checkRoot();
    });
    parentWatch.on('error', () => undefined);
  } catch {
    // No watch on the parent: the identity check below and the poll fallback still recover the root.
  }
  const identityTimer = setInterval(checkRoot, ROOT_CHECK_MS);
  identityTimer.unref();

  if (opts.mode === 'poll') {
    startPolling('polling every 1 s (--poll)');
  } else if (rootPresent) {
    startChokidar();
  } else {
    setMode('waiting', `${root} does not exist; waiting for it`);
  }

  return {
    get mode() {
      return mode;
    },
    watchLeaf(rel: string) {
      if (closed || pollTimer || mode === 'polling' || !isLeaf(rel) || !opts.wants(rel, true)) return false;
      const had = leaves.has(rel);
      if (!attachLeaf(rel, absOf(rel))) return false;
      // Attached by the walk first, its leaves are the walk's too; attached here first, they are the caller's.
      if (!had && (opts.holdsLeaves?.(rel) ?? false)) ownedParents.add(rel);
      return true;
    },
    async close() {
      closed = true;
      clearInterval(identityTimer);
      parentWatch?.close();
      closeLeaves();
      if (pollTimer) clearInterval(pollTimer);
      if (trailingTimer) clearTimeout(trailingTimer);
      pollTimer = null;
      trailingTimer = null;
      const c = chok;
      chok = null;
      if (c) await c.close();
      setMode('off', 'stopped');
    },
  };
}
