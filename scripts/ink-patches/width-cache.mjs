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
 * `widestLine`, answered without grapheme segmentation when every character
 * is one column for certain (printable ASCII or a checked narrow symbol, no
 * combining marks, no joiners) and every escape is an SGR sequence; anything
 * else is `widestLine`'s own answer.
 */
export function createFastWidth(widestLine) {
  const narrow = new Set([...NARROW_CANDIDATES].filter((c) => widestLine(c) === 1));
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
