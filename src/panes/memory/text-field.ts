/**
 * A one-line text field as a pure value: text plus a cursor (in UTF-16 code
 * units, always on a code-point boundary). Every edit returns a new value, so
 * the pane reducer stays pure and fast key bursts never lose characters.
 */
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

/** Length of the code point that ends at `i` (2 for a surrogate pair). */
function before(text: string, i: number): number {
  if (i <= 0) return 0;
  const c = text.charCodeAt(i - 1);
  return i >= 2 && c >= 0xdc00 && c <= 0xdfff && text.charCodeAt(i - 2) >= 0xd800 && text.charCodeAt(i - 2) <= 0xdbff
    ? 2
    : 1;
}
function after(text: string, i: number): number {
  if (i >= text.length) return 0;
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
}

export function backspace(f: TextField): TextField {
  const n = before(f.text, f.cursor);
  if (n === 0) return f;
  return { text: f.text.slice(0, f.cursor - n) + f.text.slice(f.cursor), cursor: f.cursor - n };
}
export function del(f: TextField): TextField {
  const n = after(f.text, f.cursor);
  if (n === 0) return f;
  return { text: f.text.slice(0, f.cursor) + f.text.slice(f.cursor + n), cursor: f.cursor };
}
export const left = (f: TextField): TextField => ({ ...f, cursor: f.cursor - before(f.text, f.cursor) });
export const right = (f: TextField): TextField => ({ ...f, cursor: f.cursor + after(f.text, f.cursor) });
export const home = (f: TextField): TextField => ({ ...f, cursor: 0 });
export const end = (f: TextField): TextField => ({ ...f, cursor: f.text.length });
/** Ctrl-U: delete from the start of the line to the cursor. */
export const killToStart = (f: TextField): TextField => ({ text: f.text.slice(f.cursor), cursor: 0 });
/** Ctrl-W: delete the word before the cursor (and the spaces after it). */
export function deleteWord(f: TextField): TextField {
  const head = f.text.slice(0, f.cursor).replace(/\S*\s*$/, '');
  return { text: head + f.text.slice(f.cursor), cursor: head.length };
}
