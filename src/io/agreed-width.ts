/**
 * Text whose width terminals disagree on, made into text every terminal lays
 * out the same. Ink cuts rows by string-width's count; a terminal that counts
 * one cell more wraps the row, the header scrolls off, rows repeat and two ▸
 * appear. So the code points with disputed widths are replaced or dropped
 * before anything measures them:
 *
 * - lone surrogates → "?" (U+FFFD itself is ambiguous-width);
 * - Hangul fillers and conjoining jamo (U+115F, U+1160–U+11FF, U+3164, U+FFA0),
 *   which some terminals draw as 0 cells, some as 1, some as 2 → dropped;
 * - zero-width and format characters (ZWSP, ZWJ, ZWNJ, word joiner, BOM, soft
 *   hyphen, CGJ, variation selectors, tag characters) and emoji skin-tone
 *   modifiers, which decide whether neighbours join into one glyph → dropped
 *   (an emoji ZWJ sequence becomes its single emoji, each two cells);
 * - regional indicators (flags: 2 or 4 cells) → "?";
 * - combining marks: the first after a base character stays, a storm of them
 *   (stacked "zalgo" text) is cut to that one.
 *
 * East Asian "ambiguous" characters are left narrow, the Unicode default and
 * what omc-top's own chrome (…, ▸, ·) already assumes.
 */
const SIMPLE = /^[\x20-\x7e\n\t]*$/;
const MARK = /\p{M}/u;
/**
 * Could the loop below change anything: a lone surrogate, a dropped or replaced code point, a combining
 * mark. Most text that is not plain ASCII (an em dash, accented words, CJK) has none of these and is
 * returned as it came: the rebuilt copy was a second copy of every prompt in memory.
 */
// A class of single code points (u flag), not of glyphs: the marks and selectors in it are the point.
const SUSPECT =
  // eslint-disable-next-line no-misleading-character-class
  /[\ud800-\udfff\u00ad\u034f\u115f\u1160-\u11ff\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2064\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}\p{M}]/u;

function dropped(cp: number): boolean {
  return (
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x115f ||
    (cp >= 0x1160 && cp <= 0x11ff) ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    cp === 0x180e ||
    (cp >= 0x200b && cp <= 0x200d) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    cp === 0x3164 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  );
}

export function agreeWidth(s: string): string {
  return SIMPLE.test(s) || !SUSPECT.test(s) ? s : walkCodePoints(s);
}

/** The code-point walk itself, without the shortcut (exported so a test can hold the shortcut to it). */
export function walkCodePoints(s: string): string {
  let out = '';
  let marks = 0;
  let base = false;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += '?';
      base = true;
      marks = 0;
      continue;
    }
    if (dropped(cp)) continue;
    if (cp >= 0x1f1e6 && cp <= 0x1f1ff) {
      out += '?';
      base = true;
      marks = 0;
      continue;
    }
    if (cp >= 0x300 && MARK.test(ch)) {
      if (base && marks === 0) out += ch;
      marks++;
      continue;
    }
    out += ch;
    base = cp > 0x20;
    marks = 0;
  }
  // A single mark after its base is kept: the text may come out as it went in.
  return out === s ? s : out;
}
