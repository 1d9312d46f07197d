/**
 * The note field of the session detail (`m`): the text being typed for one session, kept in the pane state so a
 * burst of keys or a paste loses nothing. Pure transitions.
 */
import type { SessionsPaneState } from './reducer.js';
import { NOTE_MAX_CHARS } from '../../store/claude/note.js';

export const startNote = (s: SessionsPaneState, id: string, offer: NoteOffer | null = null): SessionsPaneState => ({
  ...s,
  note: { id, text: '' },
  noteOffer: offer,
});
export const endNote = (s: SessionsPaneState): SessionsPaneState => ({ ...s, note: null, noteOffer: null });
// Nothing is typed over an offered note: the field stays empty, so a hang-up now keeps that note's file.
export const typeNote = (s: SessionsPaneState, text: string): SessionsPaneState =>
  s.note && !s.noteOffer ? { ...s, note: { ...s.note, text: (s.note.text + text).slice(0, NOTE_MAX_CHARS) } } : s;
export const backspaceNote = (s: SessionsPaneState): SessionsPaneState =>
  s.note ? { ...s, note: { ...s.note, text: [...s.note.text].slice(0, -1).join('') } } : s;

type NoteOffer = NonNullable<SessionsPaneState['noteOffer']>;

/** r: the kept note is back in the field, unsent. */
export const restoreNote = (s: SessionsPaneState): SessionsPaneState =>
  s.noteOffer?.kind === 'draft' ? { ...s, note: s.noteOffer.restore, noteOffer: null } : s;
export const dropNoteOffer = (s: SessionsPaneState): SessionsPaneState => ({ ...s, noteOffer: null });
