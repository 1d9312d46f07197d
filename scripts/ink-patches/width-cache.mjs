// Ink 6 measures every text node with string-width on every frame. The same
// texts come back frame after frame, so their widths are remembered (bounded).

export const MAX_TEXTS = 20_000;

/** `widestLine`, remembered per text. */
export function createWidthCache(widestLine) {
  const widths = new Map();
  return function cachedWidestLine(text) {
    let w = widths.get(text);
    if (w === undefined) {
      if (widths.size > MAX_TEXTS) widths.clear();
      w = widestLine(text);
      widths.set(text, w);
    }
    return w;
  };
}
