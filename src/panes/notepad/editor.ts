/**
 * The in-app multi-line editor: a text buffer and a cursor, changed only by
 * pure transitions. Keys are reduced one at a time against the latest
 * buffer (UiStore), so a fast burst or a paste never loses a character, the
 * failure mode of ink-text-input.
 *
 * Offsets are UTF-16 indexes that never split a surrogate pair. Up/Down move
 * between logical lines and keep the column the cursor wanted (`goal`).
 */
import stringWidth from 'string-width';

export interface TextBuffer {
  text: string;
  cursor: number;
  /** Column Up/Down aim for; null until the first vertical move. */
  goal: number | null;
}

export const bufferOf = (text: string, cursor = text.length): TextBuffer => ({
  text,
  cursor: clampCursor(text, cursor),
  goal: null,
});

function clampCursor(text: string, at: number): number {
  let c = Math.max(0, Math.min(text.length, at));
  if (isLowSurrogate(text.charCodeAt(c)) && isHighSurrogate(text.charCodeAt(c - 1))) c -= 1;
  return c;
}
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Typed or pasted text as the buffer stores it: LF newlines, tabs as two spaces, no control bytes. */
export function cleanInput(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '  ')
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}

export function insert(b: TextBuffer, raw: string): TextBuffer {
  const s = cleanInput(raw);
  if (s === '') return b;
  return { text: b.text.slice(0, b.cursor) + s + b.text.slice(b.cursor), cursor: b.cursor + s.length, goal: null };
}

function prevIndex(text: string, at: number): number {
  if (at <= 0) return 0;
  return isLowSurrogate(text.charCodeAt(at - 1)) && isHighSurrogate(text.charCodeAt(at - 2)) ? at - 2 : at - 1;
}
function nextIndex(text: string, at: number): number {
  if (at >= text.length) return text.length;
  return isHighSurrogate(text.charCodeAt(at)) && isLowSurrogate(text.charCodeAt(at + 1)) ? at + 2 : at + 1;
}

export function backspace(b: TextBuffer): TextBuffer {
  if (b.cursor === 0) return b;
  const p = prevIndex(b.text, b.cursor);
  return { text: b.text.slice(0, p) + b.text.slice(b.cursor), cursor: p, goal: null };
}

export function del(b: TextBuffer): TextBuffer {
  if (b.cursor >= b.text.length) return b;
  return { ...b, text: b.text.slice(0, b.cursor) + b.text.slice(nextIndex(b.text, b.cursor)), goal: null };
}

export const left = (b: TextBuffer): TextBuffer => ({ ...b, cursor: prevIndex(b.text, b.cursor), goal: null });
export const right = (b: TextBuffer): TextBuffer => ({ ...b, cursor: nextIndex(b.text, b.cursor), goal: null });

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl;
}

export const home = (b: TextBuffer): TextBuffer => ({ ...b, cursor: lineStart(b.text, b.cursor), goal: null });
export const end = (b: TextBuffer): TextBuffer => ({ ...b, cursor: lineEnd(b.text, b.cursor), goal: null });
export const docStart = (b: TextBuffer): TextBuffer => ({ ...b, cursor: 0, goal: null });
export const docEnd = (b: TextBuffer): TextBuffer => ({ ...b, cursor: b.text.length, goal: null });

/** Moves `lines` logical lines (negative = up), keeping the goal column. */
export function vertical(b: TextBuffer, lines: number): TextBuffer {
  const col = b.goal ?? b.cursor - lineStart(b.text, b.cursor);
  let start = lineStart(b.text, b.cursor);
  for (let i = 0; i < Math.abs(lines); i++) {
    if (lines < 0) {
      if (start === 0) return { ...b, cursor: 0, goal: col };
      start = lineStart(b.text, start - 1);
    } else {
      const e = lineEnd(b.text, start);
      if (e >= b.text.length) return { ...b, cursor: b.text.length, goal: col };
      start = e + 1;
    }
  }
  const cursor = clampCursor(b.text, Math.min(start + col, lineEnd(b.text, start)));
  return { ...b, cursor, goal: col };
}

export interface VisualRow {
  text: string;
  /** Offset of the row's first character in the buffer. */
  from: number;
  to: number;
}

/**
 * Soft-wraps every logical line to `width` cells, after the last space when
 * there is one, else mid-word. Rows cover the buffer contiguously, so a
 * cursor offset always maps to one cell.
 */
export function layout(text: string, width: number): VisualRow[] {
  const w = Math.max(2, width);
  const rows: VisualRow[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    let rowStart = offset;
    let cur = '';
    let used = 0;
    for (const ch of line) {
      const cw = Math.max(1, stringWidth(ch));
      // Leave one cell at the end of a row for the cursor.
      if (used + cw > w - 1 && cur !== '') {
        const space = cur.lastIndexOf(' ');
        const cut = space > 0 && space < cur.length - 1 ? space + 1 : cur.length;
        rows.push({ text: cur.slice(0, cut), from: rowStart, to: rowStart + cut });
        rowStart += cut;
        cur = cur.slice(cut);
        used = stringWidth(cur);
      }
      cur += ch;
      used += cw;
    }
    rows.push({ text: cur, from: rowStart, to: offset + line.length });
    offset += line.length + 1;
  }
  return rows;
}

/** The visual row holding the cursor (the later row when it sits exactly at a wrap point). */
export function cursorRow(rows: readonly VisualRow[], cursor: number): number {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i] as VisualRow;
    if (cursor >= r.from && cursor <= r.to) return i;
  }
  return Math.max(0, rows.length - 1);
}
