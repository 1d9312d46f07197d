/**
 * How a cancel names what it acts on, the same in `omc-top cancel`, on another machine over ssh (the fleet's
 * `c`/`p`) and from the serve page: "legacy" is the session-less state (OMC's files in state/ and the root);
 * "session:ID" is the session directory ID only, so a directory that is itself named legacy is
 * "session:legacy"; a bare ID is a session directory (or a unique prefix of one, on the command line).
 */
import { isValidSessionId } from '../sessions/omc-rules.js';

export const SESSION_PREFIX = 'session:';
export const SESSIONLESS_TARGET = 'legacy';

/**
 * The words for a row: its session id, and whether it is the session-less state (unknown: an older sender, which
 * may not know "session:ID"). A row known to be a directory is named "session:ID": exactly that directory, so
 * "legacy" is not taken for the session-less state and an id whose directory just went is not taken as a prefix.
 */
export function cancelTargetOf(row: { session: string; sessionless?: boolean }): string {
  if (row.sessionless === true) return SESSIONLESS_TARGET;
  if (row.sessionless === false) return `${SESSION_PREFIX}${row.session}`;
  return row.session;
}

/** What the words name: null = the session-less state; the id of a directory (`dirOnly` when said so). */
export function parseCancelTarget(given: string): { sessionId: string | null; dirOnly: boolean } | null {
  const dirOnly = given.startsWith(SESSION_PREFIX);
  const id = dirOnly ? given.slice(SESSION_PREFIX.length) : given;
  if (!isValidSessionId(id)) return null;
  return { sessionId: id === SESSIONLESS_TARGET && !dirOnly ? null : id, dirOnly };
}
