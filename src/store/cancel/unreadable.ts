/**
 * Why omc-top neither cancels nor pauses a session one of whose mode files (or its directory) it may not read
 * (permission denied, an I/O error: safe-fs `notReadHere`; OMC writes its files 0600, so another user's omc-top
 * meets this). The words are one function's, so the plan's refusal (`omc-top cancel`, the monitor's message) and the
 * keys' reason (the footer leaves `c`/`p` out, `?` and pressing them say why) never differ.
 *
 * Decided from what OMC's own cancel does (research/omc-contract.md §3, §4.3), not by taste:
 * - OMC's cancel (`state_clear`) runs as the files' owner and reads every state file it ends: its cancel signal is
 *   bound to each file's SHA-256, and the file is deleted only if it is still the one read. omc-top cannot do
 *   either without the bytes, and leaving the file in place leaves the loop running once the 30 s signal is over.
 * - A signal alone (what a pause writes) is not safe either: while the session's autopilot is enforceable the Stop
 *   hook ignores the generic form and honours only one bound to that file's digest, and an unread file may be
 *   that autopilot. Nor could the tracker say whether it took: re-judging the session needs the same file.
 * - A user who may not read 0600 files in a directory is rarely one who may write in it.
 * So both are refused before anything is planned or written, with the file named; the user's way out is to run
 * omc-top as the files' owner (the reason the read failure itself gives).
 */
import { cleanLine } from '../../io/sanitize.js';
import type { SessionView } from '../sessions/model.js';

/** The refusal, after `cancel: ` or `pause: ` (the monitor's message, `omc-top cancel`'s error). */
export function unreadableCancelReason(rel: string, why: string): string {
  return `omc-top cannot read ${cleanLine(rel)} (${cleanLine(why).slice(0, 120)}): nothing is written, since cancelling or pausing this session needs what it holds`;
}

/**
 * The refusal for a session as the store shows it: its directory could not be listed, or a mode file of its own
 * could not be read (`SessionView.unreadable`, the failure's words from its problem line); null otherwise. A file
 * only its verdict reads (its start record, a cancel signal, the session-less files) does not stop a cancel: the
 * plan reads the mode files it acts on itself.
 */
export function unreadableCancelOf(
  s: Pick<SessionView, 'unreadable' | 'modes' | 'problems' | 'kind' | 'id'>,
): string | null {
  const unread = s.unreadable;
  if (!unread || unread.length === 0) return null;
  const dir = s.kind === 'legacy' ? 'state' : `state/sessions/${s.id}`;
  const rel =
    unread.find((r) => r === dir) ?? unread.find((r) => s.modes.some((m) => m.status === 'unreadable' && m.path === r));
  if (rel === undefined) return null;
  return unreadableCancelReason(rel, s.problems.find((p) => p.path === rel)?.message ?? 'not readable');
}
