// A faster Output.get() for Ink 6, injected at bundle time (scripts/build.mjs).
//
// Ink builds every frame as a grid of cell objects (width × height), writes
// each text line into it, then turns every row back into an ANSI string. For
// a monitor whose rows are one text node each and barely change between
// frames, that is the dominant cost of a frame (BENCHMARKS.md).
// When every row is written by at most one text line and nothing is clipped,
// a row's final string depends only on (x, width, line), so we compute it the
// same way Ink does and remember it. Anything else (clipping, overlapping
// writes, negative offsets) falls back to Ink's own algorithm.
//
// A row seen for the first time (a new age label, a filter keystroke) is built
// from its runs of same-styled text, not from one styled-cell object per
// column: Ink's cells cost ~330 bytes each, so a frame of 60 new 200-column rows
// made megabytes of garbage and most of an idle frame's CPU (BENCHMARKS.md,
// "Round three"). The bytes are the same (test/input/ink-fast-output.test.ts).
import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, tokenize } from '@alcalzone/ansi-tokenize';

/** SGR sequences (colours, bold, inverse…): the only escapes the run path understands. */
const SGR = /\u001b\[[0-9;]*m/g;
/** Any other escape (links, cursor moves, a lone ESC or C1 CSI) goes Ink's way. */
const OTHER_ESCAPE = /[\u001b\u009b]/;

/** The ANSI code tokens of one SGR sequence, parsed once (a frame reuses a handful). */
const sgrTokens = new Map();
function tokensOf(sequence) {
  let t = sgrTokens.get(sequence);
  if (t === undefined) {
    t = tokenize(sequence).filter((x) => x.type === 'ansi');
    if (sgrTokens.size > 1000) sgrTokens.clear();
    sgrTokens.set(sequence, t);
  }
  return t;
}

/**
 * Ink's row for one write of `line` at column `x`, by runs. Ink places every
 * character on a blank row, then re-encodes each cell's reduced style as the
 * difference from the previous cell and trims the end. Column widths only decide
 * how many blank cells follow the text, and those are trimmed away, so the row
 * is: x spaces (the row's blank cells end at `width`), each run's style
 * difference then its text, the final reset, trimmed. Undefined when the line
 * holds an escape other than SGR.
 */
export function rowByRuns(x, width, line) {
  const bare = line.replace(SGR, '');
  if (OTHER_ESCAPE.test(bare)) return undefined;
  let out = ' '.repeat(Math.min(x, width));
  let styles = [];
  let pending = [];
  let from = 0;
  const emit = (text) => {
    if (text === '') return;
    if (pending.length > 0) {
      const next = reduceAnsiCodesIncremental(styles, pending);
      out += ansiCodesToString(diffAnsiCodes(styles, next));
      styles = next;
      pending = [];
    }
    out += text;
  };
  for (const m of line.matchAll(SGR)) {
    emit(line.slice(from, m.index));
    pending.push(...tokensOf(m[0]));
    from = m.index + m[0].length;
  }
  emit(line.slice(from));
  return (out + ansiCodesToString(diffAnsiCodes(styles, []))).trimEnd();
}

/**
 * @param {{styledCharsToString: (chars: any[]) => string}} deps
 * @returns {(output: any) => ({output: string, height: number} | undefined)}
 */
export function createFastGet({ styledCharsToString }) {
  const rowCache = new Map();
  const blank = () => ({ type: 'char', value: ' ', fullWidth: false, styles: [] });

  /** Exactly Ink's per-row algorithm for a single write at column x (lines the run path declines). */
  function renderCells(output, x, line) {
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
        s = rowByRuns(w.x, output.width, line) ?? renderCells(output, w.x, line);
        if (rowCache.size > 5000) rowCache.clear();
        rowCache.set(key, s);
      }
      rows.push(s);
    }
    return { output: rows.join('\n'), height: output.height };
  };
}
