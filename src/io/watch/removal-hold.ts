/**
 * A removal is held a moment before any domain sees it, and the root is looked at again then.
 *
 * `rm -rf .omc` removes the files before the directories: each loop's state file goes while `.omc` is still
 * there, so a look at the root on the removal's own batch finds it, and the removal would be taken for each active
 * loop stopping (and each finished session leaving, one by one, as far as `rm` got). Held until removals have been
 * quiet for `quietMs` (a long `rm` keeps them coming), the root is gone by then and its absence is said once
 * instead. Only removals are held: every other event (a write, a new file) goes through at once, and a later event
 * about a held path makes its removal stale (the later one says what is there now).
 *
 * `maxMs` after the first one, files that keep going one by one are let through (a stream of removals need not hide
 * an OMC cancel in its midst for long). Not while a directory is going with them (`treeGoing`): that is a tree being
 * removed, and how long an `rm -rf` of a few hundred sessions takes, and how long it stops between two removals, is
 * up to the machine's load (well over a second on a busy one). Cut at a fixed time (or at a stop), the loops `rm` had
 * reached were said to stop (and their rows dropped) a moment before the root was said gone and the others were kept
 * as out of sight: one removal, told two ways. A tree's removals wait until they have been quiet for `treeQuietMs`.
 */
import type { WatchEvent } from './events.js';

/** Removals quiet this long: the `rm` (or OMC's cancel) is done, the root can be looked at. */
export const REMOVAL_QUIET_MS = 100;
/** The longest a file's removal is held while removals keep coming (not a tree's: REMOVAL_TREE_QUIET_MS). */
export const REMOVAL_MAX_MS = 1_000;
/**
 * Removals quiet this long, a directory among them: a tree's removal is done. Longer than a file's: an `rm -rf .omc`
 * on a loaded machine stops for tens of milliseconds between its removals (descheduled), and a stop taken for its
 * end says each loop it had reached stopped, the root still there. A session directory removed alone is said this
 * much later.
 */
export const REMOVAL_TREE_QUIET_MS = 500;

const isRemoval = (e: WatchEvent) => e.type === 'unlink' || e.type === 'unlinkDir';

export interface RemovalHold {
  /** The events of one batch that go on now: its removals are held. */
  take(events: readonly WatchEvent[]): WatchEvent[];
  /** Forgets what is held: a rescan (the root back or replaced, polling) reads the tree as it is instead. */
  drop(): void;
  close(): void;
}

export function createRemovalHold(opts: {
  /** The held removals, once quiet (in the order they came). */
  release(events: WatchEvent[]): void;
  quietMs?: number;
  maxMs?: number;
  /**
   * A directory is going with these removals (one of them, or a held file's directory is gone too): a tree is being
   * removed, and they are held until removals have been quiet for `treeQuietMs`, however long that takes. Absent:
   * never.
   */
  treeGoing?(held: readonly WatchEvent[]): boolean;
  treeQuietMs?: number;
}): RemovalHold {
  const quietMs = opts.quietMs ?? REMOVAL_QUIET_MS;
  const maxMs = opts.maxMs ?? REMOVAL_MAX_MS;
  const treeQuietMs = Math.max(quietMs, opts.treeQuietMs ?? REMOVAL_TREE_QUIET_MS);
  const held = new Map<string, WatchEvent>();
  let timer: NodeJS.Timeout | null = null;
  let firstAt = 0;
  let lastAt = 0;
  /** Past maxMs with a tree going: held until quiet, the cap no longer applies to this hold. */
  let uncapped = false;
  let closed = false;

  /** The timer that fired has let the event loop read what was waiting (see release). */
  let turned = false;

  const release = () => {
    timer = null;
    if (closed || held.size === 0) return;
    // Timers run before the poll that reads file events: a monitor that was busy or not scheduled (a loaded machine)
    // fires this with removals made meanwhile still unread, the `rm` going on. One turn of the event loop reads them
    // (a removal among them holds on: extend), then the removals are looked at again.
    if (!turned) {
      turned = true;
      timer = setTimeout(release, 1);
      return;
    }
    turned = false;
    const quietFor = Date.now() - lastAt;
    if (quietFor < treeQuietMs && opts.treeGoing?.([...held.values()])) {
      // A directory among them: held until the tree's removal has been quiet longer (a loaded machine pauses an `rm`
      // for tens of milliseconds), past the cap too.
      uncapped = true;
      timer = setTimeout(release, treeQuietMs - quietFor);
      return;
    }
    const out = [...held.values()];
    held.clear();
    uncapped = false;
    opts.release(out);
  };
  /** Another removal: the hold runs on until removals are quiet, never past maxMs after the first one held. */
  const extend = () => {
    if (held.size === 0) return;
    const now = Date.now();
    lastAt = now;
    turned = false;
    if (timer) clearTimeout(timer);
    else firstAt = now;
    timer = setTimeout(release, uncapped ? quietMs : Math.max(0, Math.min(quietMs, firstAt + maxMs - now)));
  };

  return {
    take(events) {
      if (closed) return [];
      const now: WatchEvent[] = [];
      let removal = false;
      for (const e of events) {
        if (isRemoval(e)) {
          removal = true;
          // Map order is insertion order: delete first so a path removed again keeps its latest place.
          held.delete(e.rel);
          held.set(e.rel, e);
        } else {
          held.delete(e.rel);
          now.push(e);
        }
      }
      if (removal) extend();
      if (held.size === 0 && timer) {
        clearTimeout(timer);
        timer = null;
        uncapped = false;
      }
      return now;
    },
    drop() {
      if (timer) clearTimeout(timer);
      timer = null;
      uncapped = false;
      held.clear();
    },
    close() {
      closed = true;
      this.drop();
    },
  };
}
