/**
 * The note field of the session detail (`m`): the text being typed for one session, kept in the pane state so a
 * burst of keys or a paste loses nothing. Pure transitions.
 */
import type { SessionsPaneState } from './reducer.js';
import { NOTE_MAX_CHARS } from '../../store/claude/note.js';

export const startNote = (s: SessionsPaneState, id: string): SessionsPaneState => ({ ...s, note: { id, text: '' } });
export const endNote = (s: SessionsPaneState): SessionsPaneState => ({ ...s, note: null });
export const typeNote = (s: SessionsPaneState, text: string): SessionsPaneState =>
  s.note ? { ...s, note: { ...s.note, text: (s.note.text + text).slice(0, NOTE_MAX_CHARS) } } : s;
export const backspaceNote = (s: SessionsPaneState): SessionsPaneState =>
  s.note ? { ...s, note: { ...s.note, text: [...s.note.text].slice(0, -1).join('') } } : s;
