// agreeWidth and truncate return their input when nothing needs changing (so a prompt is not held twice in
// memory); these properties pin that the shortcuts never change an answer: the result is the one the full
// code-point walk gives, over strings mixing every class of code point the walk treats specially.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreeWidth } from '../../src/terminal/agreed-width.js';
import { truncate } from '../../src/store/sanitize.js';

/** The walk agreeWidth does, without any shortcut: what every answer must equal. */
function walked(s: string): string {
  const dropped = (cp: number) =>
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x115f ||
    (cp >= 0x1160 && cp <= 0x11ff) ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    cp === 0x180e ||
    (cp >= 0x200b && cp <= 0x200d) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    cp === 0x3164 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef);
  let out = '';
  let marks = 0;
  let base = false;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if ((cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x1f1e6 && cp <= 0x1f1ff)) {
      out += '?';
      base = true;
      marks = 0;
    } else if (dropped(cp)) continue;
    else if (cp >= 0x300 && /\p{M}/u.test(ch)) {
      if (base && marks === 0) out += ch;
      marks++;
    } else {
      out += ch;
      base = cp > 0x20;
      marks = 0;
    }
  }
  return out;
}

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
