// agreeWidth and truncate return their input when nothing needs changing (so a prompt is not held twice in
// memory); these properties pin that the shortcuts never change an answer: the result is the one the full
// code-point walk gives, over strings mixing every class of code point the walk treats specially.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreeWidth, walkCodePoints as walked } from '../../src/io/agreed-width.js';
import { truncate } from '../../src/io/sanitize.js';

const special = [
  'a',
  ' ',
  '—',
  'é',
  '語',
  '\u0301',
  '\u0308',
  '\u00ad',
  '\u200d',
  '\ufe0f',
  '\ufeff',
  '\u3164',
  '\u1160',
  '\ud83c',
  '\udf89',
  '🎉',
  '🇫🇷',
  '👍🏽',
  '\u{e0041}',
  '\n',
];
const text = fc.array(fc.oneof(fc.constantFrom(...special), fc.string({ unit: 'binary', maxLength: 3 })), {
  maxLength: 40,
});

describe('agreeWidth', () => {
  it('gives the answer of the full walk for any text', () => {
    fc.assert(
      fc.property(text, (parts) => {
        const s = parts.join('');
        expect(agreeWidth(s)).toBe(walked(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves text without disputed code points as it is (an em dash, accents, CJK, one mark after its base)', () => {
    for (const s of ['ralph: make the tests pass — and keep it green', 'café naïve', '日本語のテスト', 'e\u0301'])
      expect(agreeWidth(s)).toBe(s);
    expect(agreeWidth('a\u200db')).toBe('ab');
    expect(agreeWidth('e\u0301\u0301\u0301')).toBe('e\u0301');
  });
});

describe('truncate', () => {
  it('cuts at code points, never inside a surrogate pair, whatever the length', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 30 }), (parts, max) => {
        const s = parts.join('');
        const chars = Array.from(s);
        const want = max <= 0 ? '' : chars.length <= max ? s : max === 1 ? '…' : chars.slice(0, max - 1).join('') + '…';
        expect(truncate(s, max)).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });
});
