/**
 * The one wording for a list that cannot be said to be empty: what it would hold was not read (the `.omc` root
 * is a symlink loop, a file, past a directory this user may not search; or the pane's own directory or file was
 * refused). "No sessions yet" there would claim an empty tree nobody looked at, so every pane says instead what is
 * known, the same way: `  Sessions not known: .omc cannot be read (it is a symlink loop).`
 *
 * A root that is simply not there (`missing`) is not one of these: nothing is there to read, so a pane's own empty
 * state ("No sessions yet: start a loop …") stays true.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { SYMLINK_LOOP, type RootAbsence } from '../io/watch/root-presence.js';
import type { OmcStore } from '../store/store.js';
import type { SessionsSnapshot } from '../store/sessions/model.js';

/** The line a pane shows in place of its empty state: `what` (the list's noun) is not known, `where` was not read. */
export const notKnownLine = (what: string, where: string, why: string): string =>
  `  ${what} not known: ${where} cannot be read (${why}).`;

/**
 * The line at the head of a list that shows what it could read while one of its sources is there but refused (the
 * run ledger while the sessions' summaries read): the rows are true, the list is not all of them.
 */
export const incompleteLine = (what: string, where: string, why: string): string =>
  `  ${what} incomplete: ${where} cannot be read (${why}).`;

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

/**
 * Why `.omc` itself may not be read (permission, I/O: a chmod by its owner), from the sessions domain, which lists
 * it first and names it first among the directories it was refused (SessionsSnapshot.unreadableDirs); null when it
 * could be listed. The words are its problem line's.
 */
export function rootRefusedWhy(sessions: SessionsSnapshot): string | null {
  if (sessions.unreadableDirs?.[0] !== ROOT_NAME) return null;
  return sessions.problems.find((p) => p.path === ROOT_NAME)?.message ?? 'it may not be listed';
}

/** Why nothing under the root can be read now: not a readable directory (rootUnreadWhy) or refused (rootRefusedWhy). */
export function rootNotReadWhy(store: OmcStore): string | null {
  return rootUnreadWhy(store.status.getSnapshot().rootAbsence) ?? rootRefusedWhy(store.sessions.getSnapshot());
}

/**
 * The one refusal of every key that writes under the root while the root cannot be read: a save there could only
 * fail after the user typed it (or write beside files it never read), so it is refused before anything is typed,
 * and the footer does not offer it. Null once the root reads again (the watcher follows it; no key needs a restart).
 */
export function rootWriteBlock(store: OmcStore): string | null {
  const why = rootNotReadWhy(store);
  return why === null ? null : `${ROOT_NAME} cannot be read (${why}): nothing will be written`;
}

/** rootNotReadWhy followed: a view re-renders only when the answer changes, not at every sessions snapshot. */
export function useRootNotReadWhy(store: OmcStore): string | null {
  const subscribe = useMemo(
    () => (cb: () => void) => {
      const offStatus = store.status.subscribe(cb);
      const offSessions = store.sessions.subscribe(cb);
      return () => {
        offStatus();
        offSessions();
      };
    },
    [store],
  );
  return useSyncExternalStore(subscribe, () => rootNotReadWhy(store));
}
