/**
 * `fit` on any text: what the per-character definition gives (each code point measured by string-width, the text
 * cut where the next one would not fit, code points taken off the end until one cell is free for '…', then padded),
 * written here plainly as the reference. fit measures each code point's width once and slices instead of building
 * a string a character at a time; neither may change a cell.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cleanLine } from '../../src/io/sanitize.js';
import { fit } from '../../src/ui/format.js';

function reference(text: string, w: number): string {
  if (w <= 0) return '';
  const chars = Array.from(cleanLine(text));
  const kept: string[] = [];
  let used = 0;
  for (const ch of chars) {
    const cw = stringWidth(ch);
    if (used + cw > w) {
      while (kept.length > 0 && used + 1 > w) used -= stringWidth(kept.pop() as string);
      return kept.join('') + '…' + ' '.repeat(Math.max(0, w - used - 1));
    }
    kept.push(ch);
    used += cw;
  }
  return kept.join('') + ' '.repeat(w - used);
}

// Wide (CJK, Hangul, emoji), zero-width (combining marks, ZWJ), astral (surrogate pairs), lone surrogates, and
// one-cell text, mixed: every path of fit's cutting.
const piece = fc.constantFrom(
  'a',
  'Z ',
  '決済',
  'フロー',
  '인증',
  '🚀',
  '👩‍💻',
  'e\u0301',
  '\u0483',
  '\u200d',
  '\u{10400}',
  '\ud800',
  '\udc00',
  '·',
  '—',
  '✓',
  '\u001b[31m',
  'ＡＢ',
);
const text = fc.array(piece, { maxLength: 24 }).map((xs) => xs.join(''));

describe('fit on any text', () => {
  it('gives what measuring and cutting character by character gives (fast-check)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 30 }), (s, w) => {
        expect(fit(s, w)).toBe(reference(s, w));
      }),
      { numRuns: 3000 },
    );
  });

  it('measures a wide character the same on every call', () => {
    for (let i = 0; i < 3; i++) expect(fit('決済フロー', 7)).toBe('決済フ…');
  });
});
