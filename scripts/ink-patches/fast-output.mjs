// A faster Output.get() for Ink 6, injected at bundle time (scripts/build.mjs).
//
// Ink builds every frame as a grid of cell objects (width × height), writes
// each text line into it, then turns every row back into an ANSI string. For
// a monitor whose rows are one text node each and barely change between
// frames, that is the dominant cost of a frame (research/perf-floor.md §4).
// When every row is written by at most one text line and nothing is clipped,
// a row's final string depends only on (x, width, line), so we compute it the
// same way Ink does and remember it. Anything else (clipping, overlapping
// writes, negative offsets) falls back to Ink's own algorithm.

/**
 * @param {{styledCharsToString: (chars: any[]) => string}} deps
 * @returns {(output: any) => ({output: string, height: number} | undefined)}
 */
export function createFastGet({ styledCharsToString }) {
  const rowCache = new Map();
  const blank = () => ({ type: 'char', value: ' ', fullWidth: false, styles: [] });

  /** Exactly Ink's per-row algorithm for a single write at column x. */
  function renderRow(output, x, line) {
    const row = [];
    for (let i = 0; i < output.width; i++) row.push(blank());
    const characters = output.caches.getStyledChars(line);
    let offsetX = x;
    for (const character of characters) {
      row[offsetX] = character;
      const characterWidth = Math.max(1, output.caches.getStringWidth(character.value));
      if (characterWidth > 1) {
        for (let index = 1; index < characterWidth; index++) {
          row[offsetX + index] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
        }
      }
      offsetX += characterWidth;
    }
    return styledCharsToString(row.filter((item) => item !== undefined)).trimEnd();
  }

  return function fastGet(output) {
    const perRow = new Array(output.height);
    for (const op of output.operations) {
      if (op.type !== 'write') return undefined;
      if (op.y < 0 || op.x < 0) return undefined;
      const lines = op.text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const y = op.y + i;
        if (y >= output.height) break;
        if (perRow[y] !== undefined) return undefined;
        perRow[y] = { x: op.x, line: lines[i], index: i, transformers: op.transformers };
      }
    }
    const rows = [];
    for (let y = 0; y < output.height; y++) {
      const w = perRow[y];
      if (w === undefined) {
        rows.push('');
        continue;
      }
      let line = w.line;
      for (const transformer of w.transformers) line = transformer(line, w.index);
      const key = `${w.x}\u0000${output.width}\u0000${line}`;
      let s = rowCache.get(key);
      if (s === undefined) {
        s = renderRow(output, w.x, line);
        if (rowCache.size > 5000) rowCache.clear();
        rowCache.set(key, s);
      }
      rows.push(s);
    }
    return { output: rows.join('\n'), height: output.height };
  };
}
