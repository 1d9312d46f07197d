/**
 * What a permission request shows of the call it asks about, and whether it may be allowed from omc-top. The
 * user allows what they read: every character is shown (shownExactly), and a subject too long to show whole is
 * cut and can then only be denied here; Claude's own prompt shows it all.
 */
import { shownExactly } from '../../io/shown-exactly.js';
import { groupDigits } from '../../io/group-digits.js';
import { truncate } from '../../io/sanitize.js';
import { requestSubject } from './protocol.js';

/** Characters of a subject shown (a few lines of the detail at 80 columns). */
export const SUBJECT_MAX = 500;

export function subjectOf(
  toolName: string,
  input: Record<string, unknown>,
): { subject: string; allowRefused: string | null } {
  const shown = shownExactly(requestSubject(toolName, input));
  const subject = truncate(shown, SUBJECT_MAX);
  if (subject === shown) return { subject, allowRefused: null };
  const length = Array.from(shown).length;
  return {
    subject,
    allowRefused: `not allowed from here: the input is ${groupDigits(length)} characters and omc-top shows ${groupDigits(SUBJECT_MAX)}; allow it in Claude's own prompt (n denies here)`,
  };
}
