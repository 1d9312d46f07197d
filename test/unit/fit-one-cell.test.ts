/**
 * `fit` cuts or pads to exactly `w` cells. Text of one-cell characters (ASCII and the symbols the rows draw)
 * takes a shortcut; it must give what the definition gives: the text padded, or its first w-1 cells and '…'.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/ui/format.js';

const oneCell = fc
  .array(fc.constantFrom('a', 'Z', ' ', '~', '·', '—', '–', '…', '↑', '↓', '←', '→', '▸', '•', '│', '12'), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));

describe('fit on one-cell text', () => {
  it('pads to w, or keeps the first w-1 cells and an ellipsis, and is always exactly w cells', () => {
    fc.assert(
      fc.property(oneCell, fc.integer({ min: 1, max: 45 }), (s, w) => {
        const out = fit(s, w);
        const expected = s.length <= w ? s + ' '.repeat(w - s.length) : s.slice(0, w - 1) + '…';
        expect(out).toBe(expected);
        expect(stringWidth(out)).toBe(w);
      }),
      { numRuns: 2000 },
    );
  });

  it('still measures wide text cell by cell', () => {
    expect(fit('決済 · フロー', 8)).toBe('決済 · …');
    expect(stringWidth(fit('決済 · フロー', 8))).toBe(8);
    expect(fit('a↓決', 4)).toBe('a↓決');
  });
});
