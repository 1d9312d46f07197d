/**
 * The note to a session's Claude (m) kept at a hang-up (kit/kept-drafts.ts): one file per root, session and hang-up, so a
 * note typed for one session is only ever offered back in that session's own note field.
 */
import { createHash } from 'node:crypto';
import type { DraftToKeep } from '../../kit/pane.js';
import type { KeptDraft } from '../../store/drafts/draft-file.js';
import { NOTE_MAX_CHARS } from '../../store/claude/note.js';

/** The session id is OMC's (allow-listed, but not a file name of omc-top's choosing): its digest names the file. */
export const noteTarget = (sessionId: string) =>
  `note-${createHash('sha256').update(sessionId).digest('hex').slice(0, 16)}`;
export const NOTE_LIMITS = { text: NOTE_MAX_CHARS };

export function noteToKeep(note: { id: string; text: string }): DraftToKeep | null {
  if (note.text.trim() === '') return null;
  return {
    target: noteTarget(note.id),
    label: `note to session ${note.id.slice(0, 8)} (not sent)`,
    offeredAt: `m in that session's detail`,
    item: { session: note.id },
    fields: { text: note.text },
    limits: NOTE_LIMITS,
  };
}

/** The note field as the draft left it, for `sessionId` only. */
export function noteFromKept(d: KeptDraft, sessionId: string): { id: string; text: string } | string {
  if (d.item.session !== sessionId) return `it is for session ${JSON.stringify(d.item.session)}, not this one`;
  return { id: sessionId, text: d.fields.text ?? '' };
}
