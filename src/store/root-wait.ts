/**
 * Following the start's rule while the root it picked is not there yet: the one wait every surface that watches
 * one project uses (the monitor, `watch --json`). A process started before OMC made any `.omc` waits on the path
 * the rule picked ($HOME/.omc outside git), but the rule's answer can change under it: a `git init` makes the top
 * level's `.omc` the place, OMC 4.x makes `./.omc`, a workspace marker or a state directory can appear. Everything
 * the rule looks at is watched (rootCandidates: the directories' own watches and a slow stat of a few paths, nothing
 * that costs at rest); at a change the rule is run again, and a root elsewhere is moved to, said once in the words
 * of every other move (rootMovedWords). The waiting ends the first time a root is there: from then on the root is
 * kept as it is today (its going away and coming back are the store's own root lines). A root given with --root is
 * waited on as given, and a start path nothing can be opened through has nothing to follow.
 */
import { watchRootCandidates } from '../io/watch/root-candidates.js';
import { rootCandidates, rootMovedWords } from './omc-root.js';
import type { RootResolution } from './root.js';

export interface RootWait {
  /** The resolution the process started with (no root there). */
  start: RootResolution;
  /** The directory the rule starts from, and the home whose `.omc` it may pick. */
  cwd: string;
  home: string;
  /** The start's rule run again, as things stand now. */
  again(): RootResolution;
  /**
   * The root the process watches now, or null when it is closing or another move is under way: the waiting ends
   * when that is not the root waited on (another root was chosen meanwhile: an OMC upgrade followed it).
   */
  watching(): string | null;
  /** Go to `next` (another root than the one waited on), saying `words`. */
  move(next: RootResolution, words: string): void;
  /** A root is there now (the first time): the waiting ends. */
  found?(): void;
  /** The slow look's period (tests). */
  lookMs?: number;
}

/** Whether a process started on `res` waits for its root by following the rule: no root there, and a rule to follow. */
export const followsRootRule = (res: RootResolution): boolean =>
  !res.exists && res.rule !== 'override' && res.rule !== 'unusable-path';

/** Starts the wait when `w.start` has no root and its rule can be followed; returns its stop, or null when not. */
export function waitForRoot(w: RootWait): (() => void) | null {
  if (!followsRootRule(w.start)) return null;
  let waited = w.start;
  let stop: () => void = () => undefined;
  const arm = () => {
    stop = watchRootCandidates(rootCandidates(waited, w.cwd, w.home), onChange, w.lookMs);
  };
  const onChange = () => {
    stop();
    if (w.watching() !== waited.root) return;
    let next = w.again();
    for (;;) {
      if (next.root !== waited.root) {
        const was = waited.root;
        waited = next;
        w.move(next, rootMovedWords(next, was));
      }
      if (next.exists) {
        w.found?.();
        return;
      }
      // Looked for again from what the rule looks at now (a new project directory after `git init`).
      arm();
      // The rule ran before that look's first fingerprint: a change in between (git filling the `.git` whose making
      // the watch saw) would read as no change at all, and the wait would stay on the old path. So the rule is run
      // once more now; the same answer means the look holds everything from here on.
      const check = w.again();
      if (check.root === waited.root && !check.exists) return;
      stop();
      // The move just asked for may have been taken over by another (an OMC upgrade followed): that root's now.
      if (w.watching() !== waited.root) return;
      next = check;
    }
  };
  arm();
  return () => stop();
}
