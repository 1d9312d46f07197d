// Ink 6.8 sanitises every text node's squashed text on every frame (at each
// nesting level), tokenising any text that holds an escape: every coloured row,
// every frame. The function is pure, and the same texts come back frame after
// frame, so its answers are remembered (bounded), like the widths.
//
// A new text (every row of the first frame) is tokenised character by character,
// in code the first frame runs cold: ~17 ms of a 200x60 first frame's main thread.
// omc-top's own texts hold no escape but the SGR colours chalk writes, which Ink's
// sanitiser keeps as they are; such a text is found by one regular-expression scan
// (native code, warm or cold) and passed through unchanged.

export const MAX_SANITIZED = 5_000;

/**
 * What Ink's sanitiser may change: an escape that does not start an SGR sequence (ESC [ digits, `;` or `:` m: the
 * only CSI it keeps unchanged), or a C1 control character (U+0080–U+009F).
 */
const NOT_PLAIN_SGR = /\u001b(?!\[[0-9:;]*m)|[\u0080-\u009f]/;

/** `sanitize` (Ink's sanitizeAnsi), skipped for a text it would return unchanged: plain text and SGR sequences. */
export function plainSgrPassesThrough(sanitize) {
  return function sanitized(text) {
    return NOT_PLAIN_SGR.test(text) ? sanitize(text) : text;
  };
}

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
