/**
 * The units a cursor moves over in a text an editor keeps raw, and how each
 * is shown. Both in-app editors (the notepad editor, the directive form) edit
 * the text as it is on disk, so a save writes back every character the user
 * did not touch; they show it through `shownInEditor` (io/sanitize.ts).
 *
 * A unit is a grapheme (an emoji with its modifiers, a letter with its
 * accents): the cursor never stops inside one, so it never sits on a
 * zero-width part of a character. A line feed always ends a unit (the
 * notepad editor's lines). Offsets are UTF-16 indexes into the raw text.
 */
import stringWidth from 'string-width';
import { shownInEditor } from '../io/sanitize.js';

export interface ShownUnit {
  /** The unit's raw text is text.slice(from, to). */
  from: number;
  to: number;
  /** What the screen shows for it: never a control, never empty. */
  shown: string;
  /** Cells `shown` takes. */
  width: number;
}

// Made at first use: an Intl.Segmenter costs start-up time the monitor does not spend unless someone edits.
let segmenter: Intl.Segmenter | null = null;
const graphemes = () => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
// Printable ASCII: every character is a unit of its own, shown as it is (no segmenter needed).
const PLAIN = /^[\x20-\x7e]*$/;

/** The unit boundaries inside `line` (a text without line feeds), as offsets from its start, 0 and line.length included. */
function boundaries(line: string): number[] {
  if (PLAIN.test(line)) return Array.from({ length: line.length + 1 }, (_, i) => i);
  const out: number[] = [];
  for (const s of graphemes().segment(line)) out.push(s.index);
  out.push(line.length);
  return out;
}

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl;
}

/** The units of text.slice(from, to), which holds no line feed; each with what is shown for it. */
export function unitsOf(text: string, from = 0, to = text.length): ShownUnit[] {
  const line = text.slice(from, to);
  const b = boundaries(line);
  const out: ShownUnit[] = [];
  for (let i = 0; i + 1 < b.length; i++) {
    const raw = line.slice(b[i], b[i + 1]);
    const shown = shownInEditor(raw);
    out.push({ from: from + (b[i] as number), to: from + (b[i + 1] as number), shown, width: stringWidth(shown) });
  }
  return out;
}

/** The nearest unit boundary at or before `at` (a cursor put there by a vertical move lands on one). */
export function snapStop(text: string, at: number): number {
  const c = Math.max(0, Math.min(text.length, at));
  const start = lineStart(text, c);
  const b = boundaries(text.slice(start, lineEnd(text, c)));
  let best = 0;
  for (const x of b) if (start + x <= c) best = start + x;
  return best;
}

/** Where the cursor lands one unit to the right of `at` (a line feed is a unit of its own). */
export function nextStop(text: string, at: number): number {
  if (at >= text.length) return text.length;
  if (text[at] === '\n') return at + 1;
  const start = lineStart(text, at);
  const b = boundaries(text.slice(start, lineEnd(text, at)));
  for (const x of b) if (start + x > at) return start + x;
  return lineEnd(text, at);
}

/** Where the cursor lands one unit to the left of `at`. */
export function prevStop(text: string, at: number): number {
  if (at <= 0) return 0;
  if (text[at - 1] === '\n') return at - 1;
  const start = lineStart(text, at);
  const b = boundaries(text.slice(start, lineEnd(text, at)));
  let best = start;
  for (const x of b) if (start + x < at) best = start + x;
  return best;
}
