// Ink 6 rebuilds every frame from scratch: it tokenises each line's ANSI text
// into styled cells (a cache that lives for one frame only). In a monitor almost
// every line is the same as in the previous frame, so one cache shared across
// frames (bounded) and the row-level fast path of fast-output.mjs cut the cost
// of a frame several times at 200x60 (BENCHMARKS.md). Same bytes, computed once.
export { createFastGet } from './fast-output.mjs';

// Styled cells are costly to keep: ansi-tokenize's cell objects take ~330 bytes
// per character in V8 (measured), ~40 KB per 120-column line. Rows already
// rendered live in fast-output's row cache, so this cache only needs the last
// few frames' lines: 250 lines is ~10 MB at 120 columns. (At 20,000 a day of new
// rows grew the heap ~16 MB a minute toward ~0.7 GB: test/faults/soak.e2e.test.ts.)
export const MAX_STYLED_LINES = 250;
export const MAX_WIDTHS = 40_000;

/** Returns Ink's OutputCaches to use for a frame: the shared one, renewed when it grew past its bounds. */
export function createSharedCaches(OutputCaches) {
  let shared;
  return function sharedCaches() {
    if (!shared || shared.styledChars.size > MAX_STYLED_LINES || shared.widths.size > MAX_WIDTHS) {
      shared = new OutputCaches();
    }
    return shared;
  };
}
