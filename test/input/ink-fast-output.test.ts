/**
 * The bundle replaces Ink's per-frame Output.get() with a cached fast path
 * (scripts/ink-patches/fast-output.mjs). It must produce exactly the bytes
 * Ink's own algorithm produces, for any frame it accepts.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { styledCharsToString } from '@alcalzone/ansi-tokenize';
import widestLine from 'widest-line';
import { createFastGet, rowByRuns } from '../../scripts/ink-patches/fast-output.mjs';
import { createFastWidth, NARROW_SYMBOLS, WIDE_BLOCKS } from '../../scripts/ink-patches/width-cache.mjs';
import { REPO } from '../helpers/fixtures.js';

const { default: Output } = (await import(path.join(REPO, 'node_modules', 'ink', 'build', 'output.js'))) as {
  default: any;
};
const fastGet = createFastGet({ styledCharsToString });
/** Ink's own Output.get(): under vitest Ink is patched (scripts/ink-patches), and keeps it as __omcTopGeneralGet. */
const inkGet = (o: any) => (o.__omcTopGeneralGet ?? o.get).call(o);

const piece = fc.oneof(
  fc.constantFrom('ralph 3/10', 'stale', ' · ', '決済フロー', '🚀', 'a', '   ', '…', '▸ ', 'x'.repeat(90)),
  fc.string({ maxLength: 12 }).map((s) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')),
);
const colour = fc.constantFrom('', '\u001b[31m', '\u001b[1m', '\u001b[7m', '\u001b[32;1m', '\u001b[38;5;208m');
const styled = fc
  .array(fc.tuple(colour, piece), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.map(([c, t]) => (c ? `${c}${t}\u001b[0m` : t)).join(''));
/** Closes, nesting, empty and repeated codes, codes with no text after them, as chalk and Ink's Text nest them. */
const code = fc.constantFrom(
  '\u001b[31m',
  '\u001b[39m',
  '\u001b[1m',
  '\u001b[2m',
  '\u001b[22m',
  '\u001b[7m',
  '\u001b[27m',
  '\u001b[m',
  '\u001b[0m',
  '\u001b[1;3;31m',
  '\u001b[38;2;10;20;30m',
  '\u001b[48;5;17m',
  '\u001b[49m',
);
const nested = fc.array(fc.oneof(code, piece), { minLength: 1, maxLength: 10 }).map((p) => p.join(''));
/** Escapes the run path must hand to Ink's own algorithm. */
const foreign = fc.constantFrom(
  '\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007',
  '\u001b[2K',
  '\u001bx',
  '\u009b31m',
);

describe('fast frame assembly is byte-identical to Ink', () => {
  it('for one text line per row, any styling, wide characters and offsets', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 120 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }), styled, fc.boolean()), { maxLength: 14 }),
        (width, height, writes) => {
          const o = new Output({ width, height });
          const used = new Set<number>();
          for (const [x, text, upper] of writes) {
            const y = used.size;
            if (y >= height) break;
            used.add(y);
            o.write(x, y, text, { transformers: upper ? [(l: string, i: number) => `${i}:${l.toUpperCase()}`] : [] });
          }
          const fast = fastGet(o);
          expect(fast).toBeDefined();
          expect(fast).toEqual(inkGet(o));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('rows built by runs equal rows built cell by cell, for any SGR nesting, offset and width', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 70 }),
        fc.oneof(
          nested,
          styled,
          fc.tuple(nested, foreign, nested).map((p) => p.join('')),
        ),
        (width, x, line) => {
          const o = new Output({ width, height: 1 });
          o.write(x, 0, line, { transformers: [] });
          expect(fastGet(o)).toEqual(inkGet(o));
        },
      ),
      { numRuns: 1500 },
    );
    // The run path takes SGR-only lines, and declines the rest (Ink's cells handle those).
    expect(rowByRuns(2, 80, '\u001b[7mab\u001b[31mc\u001b[39m\u001b[27m  ')).toBe(
      '  \u001b[7mab\u001b[31mc\u001b[39m\u001b[27m',
    );
    expect(rowByRuns(0, 80, 'a\u001b]8;;https://x.test\u0007b')).toBeUndefined();
  });

  it('for multi-line texts, and it steps aside (undefined) for clipping and overlapping writes', () => {
    const o = new Output({ width: 40, height: 6 });
    o.write(0, 0, 'header\n\u001b[31mred line\u001b[0m\nthird', { transformers: [] });
    o.write(2, 4, 'indented 決済', { transformers: [] });
    expect(fastGet(o)).toEqual(inkGet(o));

    const clipped = new Output({ width: 20, height: 3 });
    clipped.clip({ x1: 0, x2: 10, y1: 0, y2: 3 });
    clipped.write(0, 0, 'clipped text that is long', { transformers: [] });
    clipped.unclip();
    expect(fastGet(clipped)).toBeUndefined();

    const overlap = new Output({ width: 20, height: 3 });
    overlap.write(0, 1, 'left', { transformers: [] });
    overlap.write(10, 1, 'right', { transformers: [] });
    expect(fastGet(overlap)).toBeUndefined();
  });
});

describe('fast text widths agree with string-width', () => {
  const fastWidth = createFastWidth(widestLine);
  it('for any text a pane draws: ASCII, symbols, wide and combining characters, escapes, several lines', () => {
    const unit = fc.oneof(
      piece,
      code,
      foreign,
      fc.constantFrom(
        '·',
        '—',
        '…',
        '↑',
        '↓',
        '▸',
        '│',
        '⚠',
        '⚠\uFE0F',
        'e\u0301',
        '\u200D',
        '\n',
        '\t',
        '\u001b[',
        'ア',
        '決済フロー',
        '결제 흐름',
        'か\u3099',
        '漢\u0301',
        '字\uFE0F',
        '\u3099',
        '\u1100\u1161',
        '각\u11A8',
      ),
      // Any character of the wide blocks the scan counts as two columns, and their neighbours.
      fc
        .constantFrom(...WIDE_BLOCKS)
        .chain(([from, to]) => fc.integer({ min: from - 2, max: to + 2 }))
        .map((c) => String.fromCharCode(c)),
      fc.string({ maxLength: 6, unit: 'binary' }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(fastWidth(text)).toBe(widestLine(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('for every narrow symbol, alone and between ASCII', () => {
    for (const ch of NARROW_SYMBOLS) {
      expect(fastWidth(ch)).toBe(widestLine(ch));
      expect(fastWidth(`a${ch}b`)).toBe(widestLine(`a${ch}b`));
    }
  });

  it('for every character of the wide blocks, alone and between ASCII', () => {
    for (const [from, to] of WIDE_BLOCKS) {
      for (let c = from; c <= to; c++) {
        const ch = String.fromCharCode(c);
        expect(fastWidth(ch)).toBe(widestLine(ch));
        if (c % 97 === 0) expect(fastWidth(`a${ch}b`)).toBe(widestLine(`a${ch}b`));
      }
    }
  });
});
