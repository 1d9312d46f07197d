// Ink 6 measures every text node with string-width on every frame. The same
// texts come back frame after frame, so their widths are remembered (bounded).
// A text seen for the first time (a new age label, a filter keystroke) is
// measured by a plain scan when it is printable ASCII, SGR colours and a few
// narrow symbols the rows use: string-width segments every text into grapheme
// clusters, which was a tenth of an idle frame at 200x60 (BENCHMARKS.md, "Round three").

export const MAX_TEXTS = 20_000;

/** Symbols the panes draw between words; each is kept only if string-width itself says it is one column. */
const NARROW_CANDIDATES = '·—–…↑↓←→▸•│';

/**
 * Blocks of two-column characters wiki titles are written in (5 % CJK and 2 % Korean in the generated wiki, any
 * share in a real one): CJK ideographs, hiragana and katakana without their combining sound marks (U+3099–309C),
 * Hangul syllables. A row holding one of them went to grapheme segmentation whole, at every new keystroke's rows.
 * Each block is used only if string-width says its first and last character are two columns; that every
 * character in them is, is checked by test/input/ink-fast-output.test.ts. A combining mark, joiner or selector
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
 * width is certain (printable ASCII or a checked narrow symbol: one column; a
 * checked wide block: two; no combining marks, no joiners) and every escape is
 * an SGR sequence; anything else is `widestLine`'s own answer.
 */
export function createFastWidth(widestLine) {
  const narrow = new Set([...NARROW_CANDIDATES].filter((c) => widestLine(c) === 1));
  const wide = WIDE_BLOCKS.filter(
    ([from, to]) => widestLine(String.fromCharCode(from)) === 2 && widestLine(String.fromCharCode(to)) === 2,
  );
  const isWide = (c) => {
    for (const [from, to] of wide) if (c >= from && c <= to) return true;
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
