/**
 * The one wording for a list that cannot be said to be empty: what it would hold was not read (the `.omc` root
 * is a symlink loop, a file, past a directory this user may not search; or the pane's own directory or file was
 * refused). "No sessions yet" there would claim an empty tree nobody looked at, so every pane says instead what is
 * known, the same way: `  Sessions not known: .omc cannot be read (it is a symlink loop).`
 *
 * A root that is simply not there (`missing`) is not one of these: nothing is there to read, so a pane's own empty
 * state ("No sessions yet: start a loop …") stays true.
 */
import { useSyncExternalStore } from 'react';
import { SYMLINK_LOOP, type RootAbsence } from '../io/watch/root-presence.js';
import type { OmcStore } from '../store/store.js';

/** The line a pane shows in place of its empty state: `what` (the list's noun) is not known, `where` was not read. */
export const notKnownLine = (what: string, where: string, why: string): string =>
  `  ${what} not known: ${where} cannot be read (${why}).`;

/** Why nothing under the root can be read, or null when it is a directory (or simply not there: truly empty). */
export function rootUnreadWhy(absence: RootAbsence | null | undefined): string | null {
  switch (absence?.code) {
    case 'symlink-loop':
      return `it ${SYMLINK_LOOP}`;
    case 'not-a-directory':
      return absence.kind === 'not a directory' ? 'it is not a directory' : `it is ${absence.kind}, not a directory`;
    case 'unreachable':
      return `it cannot be looked at: ${absence.errno}`;
    default:
      return null;
  }
}

/** rootUnreadWhy for the store's root, followed: a view re-renders only when the answer changes. */
export function useRootUnreadWhy(store: OmcStore): string | null {
  return useSyncExternalStore(store.status.subscribe, () => rootUnreadWhy(store.status.getSnapshot().rootAbsence));
}

/** What the `.omc` root is called in these lines. */
export const ROOT_NAME = '.omc';
