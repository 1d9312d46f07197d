/**
 * A one-line text field as a pure value: text plus a cursor (in UTF-16 code
 * units, always on a unit boundary of ui/edit-units.ts). Every edit returns a
 * new value, so the pane reducer stays pure and fast key bursts never lose
 * characters. The text is the directive as stored: only typed text is
 * changed, so a save keeps every character the user did not touch.
 */
import { nextStop, prevStop } from '../../ui/edit-units.js';
export interface TextField {
  text: string;
  cursor: number;
}

export const field = (text = ''): TextField => ({ text, cursor: text.length });

/** Typed or pasted text; line breaks and tabs become spaces (a directive is one line in OMC's summary). */
export function insert(f: TextField, s: string): TextField {
  const clean = s.replace(/\r\n?|\n|\t/g, ' ');
  return { text: f.text.slice(0, f.cursor) + clean + f.text.slice(f.cursor), cursor: f.cursor + clean.length };
}

export function backspace(f: TextField): TextField {
  const p = prevStop(f.text, f.cursor);
  if (p === f.cursor) return f;
  return { text: f.text.slice(0, p) + f.text.slice(f.cursor), cursor: p };
}
export function del(f: TextField): TextField {
  const n = nextStop(f.text, f.cursor);
  if (n === f.cursor) return f;
  return { text: f.text.slice(0, f.cursor) + f.text.slice(n), cursor: f.cursor };
}
export const left = (f: TextField): TextField => ({ ...f, cursor: prevStop(f.text, f.cursor) });
export const right = (f: TextField): TextField => ({ ...f, cursor: nextStop(f.text, f.cursor) });
export const home = (f: TextField): TextField => ({ ...f, cursor: 0 });
export const end = (f: TextField): TextField => ({ ...f, cursor: f.text.length });
/** Ctrl-U: delete from the start of the line to the cursor. */
export const killToStart = (f: TextField): TextField => ({ text: f.text.slice(f.cursor), cursor: 0 });
/** Ctrl-W: delete the word before the cursor (and the spaces after it). */
export function deleteWord(f: TextField): TextField {
  const head = f.text.slice(0, f.cursor).replace(/\S*\s*$/, '');
  return { text: head + f.text.slice(f.cursor), cursor: head.length };
}
