/**
 * Where a text may be cut. An index into a JS string counts UTF-16 units, so a cut at a fixed count can land
 * between the two halves of an emoji (a lone surrogate: `?` on screen, invalid Unicode in JSON, refused by
 * strict readers) or inside a grapheme (an emoji ZWJ family, a letter and its accent). These move a cut to
 * the nearest grapheme boundary instead; only the text near the cut is segmented, so cutting a long body
 * costs the same as cutting a short one.
 */

// Made at first use: the monitor may never cut a text that needs it.
let segmenter: Intl.Segmenter | null = null;
const graphemes = () => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

// Longer than any grapheme met in practice (the longest emoji ZWJ sequences are about 15 units); a stacked
// "zalgo" storm longer than this is still cut at a code point, never inside a surrogate pair.
export const GRAPHEME_WINDOW = 48;
const WINDOW = GRAPHEME_WINDOW;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Plain ASCII on both sides of `at` (and not inside CR LF): a boundary, no segmenting needed. */
function plainBoundary(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before < 0x80 && after < 0x80 && !(before === 0x0d && after === 0x0a);
}

/** Never between the two halves of a surrogate pair: one unit back when it is. */
function codePointStart(text: string, at: number): number {
  return at > 0 && at < text.length && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? at - 1 : at;
}

/** The grapheme boundary at or before `at` (0 ≤ result ≤ at). */
export function graphemeStartAt(text: string, at: number): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  if (plainBoundary(text, at)) return at;
  const from = codePointStart(text, Math.max(0, at - WINDOW));
  const to = Math.min(text.length, at + WINDOW);
  let last = from;
  for (const s of graphemes().segment(text.slice(from, to))) {
    const b = from + s.index;
    if (b > at) break;
    last = b;
  }
  // The window began inside a grapheme longer than it: a code point boundary is the best it can say.
  return last === from && from > 0 && at - from >= WINDOW ? codePointStart(text, at) : last;
}

/** The grapheme boundary at or after `at` (at ≤ result ≤ text.length). */
export function graphemeEndAt(text: string, at: number): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  if (plainBoundary(text, at)) return at;
  const from = codePointStart(text, Math.max(0, at - WINDOW));
  const to = Math.min(text.length, at + WINDOW);
  for (const s of graphemes().segment(text.slice(from, to))) {
    const b = from + s.index;
    if (b >= at) return b;
  }
  // No boundary in the window after `at`: the end of the window, or of the text when the window reached it.
  return to === text.length ? to : codePointStart(text, at) === at ? at : at + 1;
}

/** The first `max` UTF-16 units of `text` or fewer, never ending inside a grapheme (nor a surrogate pair). */
export function headUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, graphemeStartAt(text, Math.max(0, max)));
}
