/**
 * Watches the .omc tree and turns raw file events into coalesced batches: the
 * wiring of four parts, each in its own file —
 * - coalescer.ts: every event on a leading edge (one batch per macrotask) and
 *   a trailing one (a re-read once the path has been quiet);
 * - skeleton.ts: chokidar on the directories that are not leaves;
 * - leaf-watches.ts: one plain fs.watch per leaf (session directories, wiki);
 * - root-presence.ts: the root removed, back or replaced, and the poller;
 * - removal-hold.ts: removals held a moment and confirmed by a second look
 *   at the root (`rm -rf .omc` is not each loop stopping).
 *
 * If the kernel will not give us watches (ENOSPC: inotify limit, EMFILE) or
 * the user asks for it, we poll instead and say so. A watch refused for
 * permission (the root made unreadable) is tried again once that directory
 * may be read again (refused-watch.ts).
 */
import path from 'node:path';
import type { FSWatcher, watch } from 'chokidar';
import { createCoalescer, type Edge } from './coalescer.js';
import type { WatchEvent, WatchEventType } from './events.js';
import { LeafWatches } from './leaf-watches.js';
import { relOf } from './rel-paths.js';
import { statSync } from '../safe-fs/index.js';
import { createRemovalHold } from './removal-hold.js';
import { mayWatchAgain, refusalOf, type Refusal } from './refused-watch.js';
import { pollRoot, SYMLINK_LOOP, watchRootPresence, type RootAbsence, type RootChange } from './root-presence.js';
import { watchSkeleton } from './skeleton.js';
import { shownPath } from '../shown-path.js';

export { TRAILING_MS } from './coalescer.js';
export { POLL_INTERVAL_MS, ROOT_CHECK_MS, SYMLINK_LOOP, type RootAbsence } from './root-presence.js';

export type WatchMode = 'starting' | 'events' | 'polling' | 'waiting' | 'off';

export interface TreeWatcherOptions {
  root: string;
  wants(rel: string, isDir: boolean | undefined): boolean;
  onEvents(events: WatchEvent[], edge: Edge): void;
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
  /**
   * The watch mode and its words; `absence`: what stands at the root's path instead of the directory (null while
   * it is there), so a caller can tell "the root is gone" from every other reason to wait or poll.
   */
  onMode(mode: WatchMode, detail: string, absence: RootAbsence | null): void;
  /** 'auto' = events, falling back to polling; 'poll' = polling from the start. */
  mode?: 'auto' | 'poll';
  /**
   * Why 'poll' polls when the user did not ask for it (the fleet over its share of inotify watches), in words;
   * absent: the user's `--poll` (POLL_CHOSEN_WORDS).
   */
  pollWhy?: string;
  /** For tests: replaces chokidar's watch(). */
  watchImpl?: typeof watch;
  /** Directories watched with a plain fs.watch instead of chokidar (see leaf-watches.ts). */
  isLeafDir?(rel: string): boolean;
  /** Leaves whose subdirectories may be leaves too (`state/sessions`: its session directories). */
  holdsLeaves?(rel: string): boolean;
  /**
   * The root was given by hand (`--root`): it is waited for at that path only, and the waiting words say so (a root
   * found from the current directory is looked for again there when it goes: the monitor's follow of a rename).
   */
  rootGiven?: boolean;
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
  /**
   * Files a rescan no longer finds, taken as removals: held as an event's removal is (removal-hold.ts) and delivered
   * as `unlink` events once removals are quiet, if the root is still there and they are not. A rescan can land inside
   * an `rm -rf` of the root (its files go first); taken at once, each loop there would be said to stop. False when
   * nothing is held (polling: the caller's second look; closed): the caller takes them as gone now.
   */
  holdRemovals(rels: readonly string[]): boolean;
}

const isRemoval = (e: WatchEvent) => e.type === 'unlink' || e.type === 'unlinkDir';

const WATCH_FAILURE_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'ENOSYS', 'EPERM', 'EACCES']);

/** Polling because the user asked (`--poll`): said as a fact wherever the watch mode is said, never as a problem. */
export const POLL_CHOSEN_WORDS = 'polling every 1 s (--poll)';

export function startTreeWatcher(opts: TreeWatcherOptions): TreeWatcher {
  const root = path.resolve(opts.root);
  const given = opts.rootGiven === true;
  let mode: WatchMode = 'starting';
  let chok: FSWatcher | null = null;
  let poller: { stop(): void } | null = null;
  let closed = false;
  let firstReady = true;

  const setMode = (m: WatchMode, detail: string) => {
    mode = m;
    opts.onMode(m, detail, presence.absence);
  };
  const isLeaf = (rel: string) => opts.isLeafDir?.(rel) ?? false;
  const holdsLeaves = (rel: string) => opts.holdsLeaves?.(rel) ?? false;

  const coalescer = createCoalescer((events, edge) => {
    // `rm -rf .omc` takes the files before the directory, and a batch of their removals may reach us before the
    // parent's event about the root: look at the root before any domain takes a removal for its file's end, so a
    // root that went is said once (the rescan of its absence replaces these events), not as each loop stopping.
    if (presence.present && events.some(isRemoval) && !presence.recheck()) return;
    // The root still there on the removal's own batch proves little (rm has the directories left to do): removals
    // wait for a second look (removal-hold.ts); everything else goes on now.
    const now = removals.take(events);
    if (now.length > 0) opts.onEvents(now, edge);
  });
  const removals = createRemovalHold({
    release: (events) => {
      if (closed || poller) return;
      // The root gone meanwhile: its absence (and the rescan it brings) says it once, and no loop stopped.
      if (!presence.recheck()) return;
      // A path there again (the root replaced and re-read meanwhile, a file written anew) is no removal now.
      const gone = events.filter((e) => statSync(root, e.rel) === null);
      if (gone.length > 0) opts.onEvents(gone, 'leading');
    },
    // A directory going (its event, or a held file's directory gone too): a tree is being removed, maybe the root.
    treeGoing: (held) =>
      held.some((e) => e.type === 'unlinkDir') ||
      held.some((e) => e.rel.includes('/') && statSync(root, path.posix.dirname(e.rel)) === null),
  });
  const report = (type: WatchEventType, abs: string, opt?: { trailing?: boolean }) => {
    if (closed) return;
    const rel = relOf(root, abs);
    if (rel.startsWith('..')) return;
    coalescer.push(type, rel, opt);
  };

  /** Polling because a directory may not be read (EACCES, EPERM): tried again once it may (refused-watch.ts). */
  let refusal: Refusal | null = null;

  /** A watch that failed for lack of watches (or of support) falls back to polling, saying why. */
  const pollOnWatchFailure = (err: unknown) => {
    const code = (err as NodeJS.ErrnoException)?.code ?? '';
    if (!WATCH_FAILURE_CODES.has(code)) return;
    if (!poller) refusal = refusalOf(err, root);
    startPolling(
      code === 'ENOSPC'
        ? 'inotify watch limit reached (ENOSPC): polling every 1 s; raise fs.inotify.max_user_watches to go live'
        : `file watching failed (${code}): polling every 1 s`,
    );
  };

  const leaves = new LeafWatches({
    root,
    wants: opts.wants,
    isLeaf,
    holdsLeaves,
    report,
    onWatchFailure: pollOnWatchFailure,
    stopped: () => closed || poller !== null,
  });

  const stopEventWatches = () => {
    // What was held is read again by the rescan that follows every stop (the root gone, back, replaced, polling).
    removals.drop();
    leaves.closeAll();
    if (chok) {
      const c = chok;
      chok = null;
      void c.close().catch(() => undefined);
    }
  };

  const startEventWatches = () => {
    try {
      const c = watchSkeleton({
        root,
        wants: opts.wants,
        isLeaf,
        watchImpl: opts.watchImpl,
        onAddDir: (abs, ready) => {
          report('addDir', abs);
          // Before ready, the initial walk attaches everything; after it, only the new directory's subtree.
          if (ready) leaves.attachAll(abs);
        },
        onUnlinkDir: (abs) => report('unlinkDir', abs),
        onEntry: (abs) => leaves.entry(abs),
        onReady: () => {
          if (closed || poller || chok !== c) return;
          leaves.attachAll();
          if (poller) return;
          setMode('events', 'watching for changes');
          // Anything written while the watches were being set up is picked up here.
          const onFirstReady = firstReady ? opts.onReady : undefined;
          firstReady = false;
          if (onFirstReady) onFirstReady();
          else opts.onRescan();
        },
        onError: pollOnWatchFailure,
      });
      chok = c;
    } catch (err) {
      startPolling(
        `file watching unavailable (${(err as NodeJS.ErrnoException)?.code ?? String(err)}): polling every 1 s`,
      );
    }
  };

  /** Why the poller polls (a lack of watches, --poll): its words while the root is there. */
  let pollWhy = '';
  const sayPolling = () => {
    if (presence.present) seenRoot = true;
    setMode(
      'polling',
      presence.present
        ? pollWhy
        : rootAbsentWords(root, presence.absence, { polling: true, wasThere: seenRoot, given }),
    );
  };

  // A replaced root means every watch is on a dead inode: restart them all and rescan, and say so.
  const onRootChange = (change: RootChange) => {
    if (closed) return;
    if (change !== 'gone') seenRoot = true;
    if (poller && rearmIfReadable()) return;
    if (poller) {
      // The poller rescans on its own ticks; its words follow the root (this look may have come before its own).
      sayPolling();
    } else if (change === 'gone') {
      stopEventWatches();
      setMode('waiting', rootAbsentWords(root, presence.absence, { polling: false, wasThere: true, given }));
    } else {
      stopEventWatches();
      setMode(
        'starting',
        change === 'replaced'
          ? `${shownPath(root)} was replaced (restored or switched); every watch restarted and the tree re-read`
          : `${shownPath(root)} is back; watching again`,
      );
      startEventWatches();
    }
    opts.onRescan();
  };
  const presence = watchRootPresence({ root, onChange: onRootChange });
  /** The root has been there since the watch began: its absence is "gone", not "does not exist". */
  let seenRoot = presence.present;

  function startPolling(why: string): void {
    if (closed || poller) return;
    stopEventWatches();
    pollWhy = why;
    sayPolling();
    opts.onRescan();
    poller = pollRoot({
      presence,
      onTick: (changed) => {
        if (closed || rearmIfReadable()) return;
        if (changed) sayPolling();
        opts.onRescan();
      },
    });
  }

  /**
   * Polling only because a directory was refused, and it may be read again (its owner gave it back): back to
   * events, as before. The rescan at the watches' `ready` reads what changed meanwhile.
   */
  function rearmIfReadable(): boolean {
    if (closed || !poller || refusal === null || !presence.present || !mayWatchAgain(refusal)) return false;
    poller.stop();
    poller = null;
    refusal = null;
    setMode('starting', `${shownPath(root)} may be read again; watching for changes again`);
    startEventWatches();
    return true;
  }

  if (opts.mode === 'poll') {
    startPolling(opts.pollWhy ?? POLL_CHOSEN_WORDS);
  } else if (presence.present) {
    startEventWatches();
  } else {
    setMode('waiting', rootAbsentWords(root, presence.absence, { polling: false, wasThere: false, given }));
  }

  return {
    get mode() {
      return mode;
    },
    watchLeaf(rel: string) {
      if (closed || poller || mode === 'polling' || !isLeaf(rel) || !opts.wants(rel, true)) return false;
      return leaves.watchForCaller(rel);
    },
    holdRemovals(rels) {
      if (closed || poller || mode === 'polling') return false;
      removals.take(rels.map((rel) => ({ type: 'unlink' as const, rel })));
      return true;
    },
    async close() {
      closed = true;
      removals.close();
      presence.close();
      leaves.closeAll();
      poller?.stop();
      poller = null;
      coalescer.close();
      const c = chok;
      chok = null;
      if (c) await c.close();
      setMode('off', 'stopped');
    },
  };
}

/**
 * The one line that says the root is not there: what was seen at its path and that omc-top waits for it (the
 * problem line, the footer's detail, `watch --json`'s `root` line). Nothing is said of the files that were in it:
 * they went out of sight with it, which is not OMC ending anything.
 */
export function rootAbsentWords(
  root: string,
  absence: RootAbsence | null,
  how: { polling: boolean; wasThere: boolean; given?: boolean },
): string {
  const shown = shownPath(root);
  const wait = how.polling ? 'polling every 1 s for it' : 'waiting for it';
  // A root given with --root is looked for there only (one found from the current directory follows a rename).
  const given = how.given ? ' (given with --root)' : '';
  if (absence?.code === 'not-a-directory')
    return absence.kind === 'not a directory'
      ? `${shown} is not a directory now; ${wait} to be one again${given}`
      : `${shown} is ${absence.kind} now, not a directory; ${wait} to be one again${given}`;
  if (absence?.code === 'symlink-loop') return `${shown} ${SYMLINK_LOOP}; ${wait} to be a directory${given}`;
  if (absence?.code === 'unreachable') return `${shown} cannot be looked at (${absence.errno}); ${wait}${given}`;
  return how.wasThere
    ? `${shown} is gone (moved away or removed); ${wait} to come back${given}`
    : `${shown} does not exist; ${wait}${given}`;
}
