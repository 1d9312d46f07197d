/**
 * Which fleet roots get file events and which are polled. Every watched
 * directory costs one inotify watch from a per-user pool shared with every
 * other program (editors, other monitors), so the fleet takes at most a share
 * of `max_user_watches`; roots past that share are polled (once a second) and
 * their group header says so. Roots with a live Claude session come first:
 * they are the ones that change.
 */
import type { InotifyLimits } from '../io/watch/inotify-limits.js';
import { POLL_CHOSEN_WORDS } from '../io/watch/tree-watcher.js';

/** The part of the user's inotify watches the fleet allows itself. */
export const FLEET_WATCH_SHARE = 0.5;

export interface PlannedWatch {
  watch: 'auto' | 'poll';
  /** Why this root is polled, for its group header; null when it is watched. */
  why: string | null;
  /** Polled because the user asked (`--poll`): a fact in its header, not a warning. */
  chosen: boolean;
  directories: number;
}

export function planWatches(
  roots: ReadonlyArray<{ id: string; live: boolean }>,
  limits: InotifyLimits,
  directoriesOf: (id: string) => number,
  forcePoll: boolean,
  /** Watches the fleet's earlier roots already take. */
  alreadyUsed = 0,
): Map<string, PlannedWatch> {
  const plan = new Map<string, PlannedWatch>();
  const budget = limits.watches === null ? Infinity : Math.floor(limits.watches * FLEET_WATCH_SHARE);
  let used = alreadyUsed;
  const order = [...roots].sort((a, b) => Number(b.live) - Number(a.live));
  for (const r of order) {
    const directories = directoriesOf(r.id);
    if (forcePoll) {
      plan.set(r.id, { watch: 'poll', why: POLL_CHOSEN_WORDS, chosen: true, directories });
      continue;
    }
    if (used + directories > budget) {
      plan.set(r.id, {
        watch: 'poll',
        why: `polling: over the inotify budget (${directories} watches needed, ${Math.max(0, budget - used)} of half of max_user_watches ${limits.watches} left)`,
        chosen: false,
        directories,
      });
      continue;
    }
    used += directories;
    plan.set(r.id, { watch: 'auto', why: null, chosen: false, directories });
  }
  return plan;
}
