// Ink 6 measures every text node with string-width on every frame. The same
// texts come back frame after frame, so their widths are remembered (bounded).
// A text seen for the first time (a new age label, a filter keystroke) is
// measured by a plain scan when it is printable ASCII, SGR colours and a few
// narrow symbols the rows use: string-width segments every text into grapheme
// clusters, which was a tenth of an idle frame at 200x60 (BENCHMARKS.md, "Round three").

export const MAX_TEXTS = 20_000;

/**
 * Symbols the panes draw between words, one column each by string-width (test/input/ink-fast-output.test.ts
 * checks every one against the string-width the bundle ships; asking it here at start-up built its emoji
 * tables before the first frame, which needs none of them).
 */
export const NARROW_SYMBOLS = '·—–…↑↓←→▸•│';

/**
 * Blocks of two-column characters wiki titles are written in (5 % CJK and 2 % Korean in the generated wiki, any
 * share in a real one): CJK ideographs, hiragana and katakana without their combining sound marks (U+3099–309C),
 * Hangul syllables. A row holding one of them went to grapheme segmentation whole, at every new keystroke's rows.
 * That every character in them is two columns by string-width is checked by test/input/ink-fast-output.test.ts.
 * A combining mark, joiner or selector
 * after one is none of these, so such a text still goes to `widestLine`.
 */
export const WIDE_BLOCKS = [
  [0x3041, 0x3096],
  [0x309d, 0x309f],
  [0x30a0, 0x30ff],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
];

/**
 * `widestLine`, answered without grapheme segmentation when every character's
 * width is certain (printable ASCII or a narrow symbol: one column; a wide
 * block: two; no combining marks, no joiners) and every escape is
 * an SGR sequence; anything else is `widestLine`'s own answer.
 */
export function createFastWidth(widestLine) {
  const narrow = new Set(NARROW_SYMBOLS);
  const isWide = (c) => {
    for (const [from, to] of WIDE_BLOCKS) if (c >= from && c <= to) return true;
    return false;
  };
  return function fastWidestLine(text) {
    let widest = 0;
    let line = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c <= 0x7e) line++;
      else if (c === 0x0a) {
        if (line > widest) widest = line;
        line = 0;
      } else if (c === 0x1b) {
        // ESC [ digits-and-semicolons m: zero columns, as string-width strips it.
        let j = i + 1;
        if (text.charCodeAt(j) !== 0x5b) return widestLine(text);
        j++;
        while (j < text.length) {
          const d = text.charCodeAt(j);
          if ((d >= 0x30 && d <= 0x39) || d === 0x3b) j++;
          else break;
        }
        if (text.charCodeAt(j) !== 0x6d) return widestLine(text);
        i = j;
      } else if (narrow.has(text[i])) line++;
      else if (isWide(c)) line += 2;
      else return widestLine(text);
    }
    return line > widest ? line : widest;
  };
}

/** `widestLine`, remembered per text. */
export function createWidthCache(widestLine) {
  const fast = createFastWidth(widestLine);
  const widths = new Map();
  return function cachedWidestLine(text) {
    let w = widths.get(text);
    if (w === undefined) {
      if (widths.size > MAX_TEXTS) widths.clear();
      w = fast(text);
      widths.set(text, w);
    }
    return w;
  };
}
