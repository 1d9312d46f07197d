/**
 * The in-app multi-line editor: a text buffer and a cursor, changed only by
 * pure transitions. Keys are reduced one at a time against the latest
 * buffer (UiStore), so a fast burst or a paste never loses a character, the
 * failure mode of ink-text-input.
 *
 * The buffer holds the raw text as it is on disk (tabs, control characters
 * and all): a save writes back byte for byte every character the user did
 * not touch. Only what is typed or pasted is cleaned. The screen shows the
 * text through ui/edit-units.ts, which is also what the cursor moves over:
 * offsets are UTF-16 indexes on grapheme boundaries. Up/Down move between
 * logical lines and keep the column the cursor wanted (`goal`).
 */
import { nextStop, prevStop, snapStop, unitsOf, type ShownUnit } from '../../ui/edit-units.js';

export interface TextBuffer {
  text: string;
  cursor: number;
  /** Column Up/Down aim for; null until the first vertical move. */
  goal: number | null;
}

export const bufferOf = (text: string, cursor = text.length): TextBuffer => ({
  text,
  cursor: snapStop(text, cursor),
  goal: null,
});

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

export function backspace(b: TextBuffer): TextBuffer {
  if (b.cursor === 0) return b;
  const p = prevStop(b.text, b.cursor);
  return { text: b.text.slice(0, p) + b.text.slice(b.cursor), cursor: p, goal: null };
}

export function del(b: TextBuffer): TextBuffer {
  if (b.cursor >= b.text.length) return b;
  return { ...b, text: b.text.slice(0, b.cursor) + b.text.slice(nextStop(b.text, b.cursor)), goal: null };
}

/** Ctrl-U: erases from the start of the line to the cursor (readline's kill to start; a long paste undone at once). */
export function killToLineStart(b: TextBuffer): TextBuffer {
  const from = lineStart(b.text, b.cursor);
  if (from === b.cursor) return b;
  return { text: b.text.slice(0, from) + b.text.slice(b.cursor), cursor: from, goal: null };
}

/** Ctrl-K: erases from the cursor to the end of the line; at the end of a line, the line break (as Emacs does). */
export function killToLineEnd(b: TextBuffer): TextBuffer {
  const to = lineEnd(b.text, b.cursor);
  const cut = to === b.cursor ? Math.min(b.text.length, to + 1) : to;
  if (cut === b.cursor) return b;
  return { ...b, text: b.text.slice(0, b.cursor) + b.text.slice(cut), goal: null };
}

/** Ctrl-W: erases the word before the cursor and the blanks after it (whitespace is one code unit: a safe cut). */
export function deleteWordBack(b: TextBuffer): TextBuffer {
  let at = b.cursor;
  while (at > 0 && /\s/.test(b.text[at - 1]!)) at--;
  while (at > 0 && !/\s/.test(b.text[at - 1]!)) at--;
  if (at === b.cursor) return b;
  return { text: b.text.slice(0, at) + b.text.slice(b.cursor), cursor: at, goal: null };
}

export const left = (b: TextBuffer): TextBuffer => ({ ...b, cursor: prevStop(b.text, b.cursor), goal: null });
export const right = (b: TextBuffer): TextBuffer => ({ ...b, cursor: nextStop(b.text, b.cursor), goal: null });

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
  const cursor = snapStop(b.text, Math.min(start + col, lineEnd(b.text, start)));
  return { ...b, cursor, goal: col };
}

export interface VisualRow {
  /** What the row shows: each unit's stand-in (ui/edit-units.ts), never a raw control. */
  text: string;
  /** Offset of the row's first character in the buffer. */
  from: number;
  to: number;
  /** The units shown, in order (the view finds the one under the cursor among them). */
  units: ShownUnit[];
}

function rowOf(units: ShownUnit[], from: number, to: number): VisualRow {
  return { text: units.map((u) => u.shown).join(''), from, to, units };
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
    const lineTo = offset + line.length;
    let cur: ShownUnit[] = [];
    let used = 0;
    for (const u of unitsOf(text, offset, lineTo)) {
      const cw = Math.max(1, u.width);
      // Leave one cell at the end of a row for the cursor.
      if (used + cw > w - 1 && cur.length > 0) {
        let space = -1;
        for (let i = cur.length - 2; i > 0 && space === -1; i--) if ((cur[i] as ShownUnit).shown === ' ') space = i;
        const cut = space > 0 ? space + 1 : cur.length;
        const head = cur.slice(0, cut);
        rows.push(rowOf(head, (head[0] as ShownUnit).from, (head.at(-1) as ShownUnit).to));
        cur = cur.slice(cut);
        used = cur.reduce((n, x) => n + Math.max(1, x.width), 0);
      }
      cur.push(u);
      used += cw;
    }
    rows.push(rowOf(cur, cur[0]?.from ?? offset, lineTo));
    offset = lineTo + 1;
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
