// Ink 6.8 sanitises every text node's squashed text on every frame (at each
// nesting level), tokenising any text that holds an escape: every coloured row,
// every frame. The function is pure, and the same texts come back frame after
// frame, so its answers are remembered (bounded), like the widths.

export const MAX_SANITIZED = 5_000;

/** `fn` (a pure function of one string), remembered per text; forgets everything when the bound is reached. */
export function createTextMemo(fn, max = MAX_SANITIZED) {
  const seen = new Map();
  return function remembered(text) {
    let out = seen.get(text);
    if (out === undefined) {
      if (seen.size >= max) seen.clear();
      out = fn(text);
      seen.set(text, out);
    }
    return out;
  };
}
