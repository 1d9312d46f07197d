// Intl.Segmenter made at its first use instead of as its module loads, wired into four dependencies at bundle
// time (scripts/lazy-segmenter/index.mjs). The first Segmenter a process makes loads ICU's break-iteration
// data (8 ms of a quiet start, 40–70 ms at load 13 on this machine), and each module made one as it loaded:
// a start paid that before its first frame although no width on it needs a segmenter (string-width measures
// printable ASCII without one, the patched Ink measures its rows the same way).
//
// The one segmenter the first frame does use, @alcalzone/ansi-tokenize's (Ink's style codes, "\x1b[1m"), gets
// ASCII text split without ICU: by Unicode's grapheme rules (UAX #29) every ASCII character is a grapheme of
// its own except CR LF, which is one; such text goes to ICU as before. Its only use of the segments is to
// iterate them ({segment, index}), which is all this gives.

/** One ASCII character per grapheme, as Intl.Segmenter's grapheme segments; undefined when that does not hold. */
export function asciiGraphemes(text) {
  if (typeof text !== 'string' || !/^[\x00-\x7f]*$/.test(text) || text.includes('\r\n')) return undefined;
  const out = new Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = { segment: text[i], index: i, input: text };
  return out;
}

/**
 * A segmenter made by `make()` when first used. `asciiFast`: ASCII text is split by asciiGraphemes (for a caller
 * that only iterates the segments).
 */
export function lazySegmenter(make, { asciiFast = false } = {}) {
  let real;
  const get = () => (real ??= make());
  return {
    segment(text) {
      return (asciiFast ? asciiGraphemes(text) : undefined) ?? get().segment(text);
    },
    resolvedOptions: () => get().resolvedOptions(),
  };
}
