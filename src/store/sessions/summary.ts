/**
 * A session's words as both the sessions pane and the `watch --json --rows` wire format say them: one mode's
 * summary (name, progress, phase) and the prompt. Below both, so a row's wording and the wire's stay one.
 */
import type { ModeView, SessionView } from './model.js';
import { modeSpec } from './modes.js';
import { GLOBAL_PREFIX } from '../verdict/types.js';

/** `iteration/max`, with `?` for the side not known; empty when neither is. */
export function progressText(iteration: number | null, max: number | null): string {
  if (iteration === null && max === null) return '';
  return `${iteration ?? '?'}/${max ?? '?'}`;
}

/** One mode as a row shows it: name, progress (autopilot: tasks done/total too), phase when asked for. */
export function modeSummary(m: ModeView, withPhase: boolean): string {
  const parts = [m.mode];
  const prog = progressText(m.iteration, m.max);
  if (prog) parts.push(prog);
  // omc-top could not read the file: `?` where nothing was ever read of it; the last good progress otherwise.
  if (m.status === 'unreadable') {
    if (!prog) parts.push('?');
    parts.push('(unreadable)');
    return parts.join(' ');
  }
  const tasks = m.mode === 'autopilot' ? m.extras.find((e) => e.startsWith('tasks ')) : undefined;
  if (tasks) parts.push(tasks);
  if (m.phase && (withPhase || modeSpec(m.mode).phaseInRow || prog === '')) parts.push(m.phase);
  // Only where the book that judges the session retired it: under 4.x rules the same mode is enforced.
  if (m.retiredForItsBook) parts.push('(retired)');
  if (m.problem || m.fieldProblem) parts.push('⚠');
  return parts.join(' ');
}

/**
 * A mode held by the user's `~/.omc/state` copy rather than a file of the project (derive.ts homeCopies): said beside
 * its path, so the `~/.omc/` path is not read as a typo of the project's `.omc`. Empty for every other mode.
 */
export function homeCopyNote(m: Pick<ModeView, 'path'>): string {
  return m.path.startsWith(GLOBAL_PREFIX) ? "  (the copy in your home that OMC's hooks fall back to)" : '';
}

/**
 * The modes of a session omc-top could not list (its directory refused): `?`, not "no modes". Null for any other
 * session without modes (the sessions pane and the wire each say those their own way).
 */
export function unknownModesText(s: Pick<SessionView, 'modes' | 'status'>): string | null {
  return s.modes.length === 0 && s.status === 'unreadable' ? '? (unreadable)' : null;
}

/** The prompt or task of the session's first mode that has one. */
export function promptText(s: SessionView): string {
  return s.modes.find((m) => m.prompt)?.prompt ?? '';
}

/**
 * What a user reads for a session's identity. The session-less (legacy) state has no id, and a session
 * directory may itself be named `legacy` (a valid OMC session id): the parentheses cannot occur in a
 * session id, so the two rows never read the same.
 */
export const LEGACY_LABEL = '(legacy)';
export const sessionLabel = (s: Pick<SessionView, 'kind' | 'id'>): string =>
  s.kind === 'legacy' ? LEGACY_LABEL : s.id;

/** Status values are identifiers ("not-enforced"); the screen says them in words. */
export function statusWords(status: string): string {
  return status.replace('-', ' ');
}
