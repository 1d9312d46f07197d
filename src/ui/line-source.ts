/**
 * Lines a scrolling view shows a window of: an array, or a source that makes only the lines asked for (a page
 * whose one section has a line per loop of 10,000 sessions should not make 20,000 lines for a screen of twenty).
 */

/** One line of a scrolling view, with its tone (a theme colour name) and whether it is drawn inverse. */
export interface ToneLine {
  text: string;
  tone?: string;
  inverse?: boolean;
}

export interface LineSource {
  readonly length: number;
  /** Lines `start` to `end` (exclusive), as an array's slice. */
  slice(start: number, end: number): readonly ToneLine[];
}

/** The lines `start` to `end` asked of a source of `length` lines, inside it. */
const windowOf = (length: number, start: number, end: number) => ({
  from: Math.max(0, start),
  to: Math.min(length, end),
});

/** The parts one after another, as one source. */
export function joinLines(parts: readonly LineSource[]): LineSource {
  const offsets: number[] = [];
  let length = 0;
  for (const p of parts) {
    offsets.push(length);
    length += p.length;
  }
  return {
    length,
    slice(start: number, end: number): ToneLine[] {
      const { from, to } = windowOf(length, start, end);
      const out: ToneLine[] = [];
      for (let i = 0; i < parts.length && from < to; i++) {
        const off = offsets[i] as number;
        const part = parts[i] as LineSource;
        const a = Math.max(from, off);
        const b = Math.min(to, off + part.length);
        if (a < b) for (const line of part.slice(a - off, b - off)) out.push(line);
      }
      return out;
    },
  };
}

/**
 * Rows of a few lines each, made only when a window reaches them: `count(row)` says how many lines a row makes
 * without making them (it must agree with `make`), `make(row)` makes them.
 */
export function rowLines<R>(
  rows: readonly R[],
  count: (row: R) => number,
  make: (row: R) => readonly ToneLine[],
): LineSource {
  const starts = new Int32Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) starts[i + 1] = (starts[i] as number) + count(rows[i] as R);
  const length = starts[rows.length] as number;
  return {
    length,
    slice(start: number, end: number): ToneLine[] {
      const { from, to } = windowOf(length, start, end);
      const out: ToneLine[] = [];
      if (from >= to) return out;
      // The row holding line `from`: the last whose start is at or before it.
      let lo = 0;
      let hi = rows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= from) lo = mid;
        else hi = mid - 1;
      }
      for (let r = lo; r < rows.length && (starts[r] as number) < to; r++) {
        const lines = make(rows[r] as R);
        for (let k = 0; k < lines.length; k++) {
          const at = (starts[r] as number) + k;
          if (at >= from && at < to) out.push(lines[k] as ToneLine);
        }
      }
      return out;
    },
  };
}
