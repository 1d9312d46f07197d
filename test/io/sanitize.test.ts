import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanBlock, cleanDeep, cleanLine, cleanLineFull, terminalSafeJson } from '../../src/io/sanitize.js';

// Anything a terminal would interpret: C0 (except \n in blocks), ESC, DEL, C1.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('sanitize: no control byte from a file reaches the terminal', () => {
  it.each([
    ['colour', 'ok \u001b[31mred\u001b[0m done', 'ok red done'],
    ['OSC 52 clipboard write', 'a\u001b]52;c;ZWNobyBoaQ==\u0007b', 'ab'],
    ['terminal title (ST-terminated)', 'x\u001b]0;pwned\u001b\\y', 'xy'],
    ['cursor movement', 'up\u001b[10Ahere\u001b[2J', 'uphere'],
    ['8-bit CSI', 'a\u009b31mb', 'ab'],
    ['reset', 'a\u001bcb', 'ab'],
    ['bidi override', 'abc\u202edef', 'abcdef'],
    ['NUL and bell', 'a\u0000b\u0007c', 'abc'],
  ])('%s is removed whole', (_name, input, expected) => {
    expect(cleanLine(input)).toBe(expected);
  });

  it('cleanLine turns newlines and tabs into spaces; cleanBlock keeps newlines', () => {
    expect(cleanLine('one\ntwo\tthree\r\n')).toBe('one two three ');
    expect(cleanBlock('one\r\ntwo\tx')).toBe('one\ntwo  x');
  });

  it('keeps ordinary text, CJK and emoji intact', () => {
    const s = '決済フロー — café ✓ 🚀 한국어';
    expect(cleanLine(s)).toBe(s);
  });

  it('property: no control characters survive, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(CONTROL.test(cleanLine(s))).toBe(false);
        expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(cleanBlock(s))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('cleanDeep sanitises keys and nested values of parsed JSON', () => {
    const v = cleanDeep({ 'k\u001b[1m': ['\u001b]0;t\u0007v', { z: 'a\u0000' }], n: 3 }) as Record<string, unknown>;
    expect(v).toEqual({ k: ['v', { z: 'a' }], n: 3 });
  });
});

import { fit } from '../../src/ui/format.js';
import stringWidth from 'string-width';

describe('fit: exact terminal cell widths', () => {
  it.each([
    ['ascii', 'hello world', 5],
    ['ascii exact', 'hello', 5],
    ['CJK (2 cells each)', '決済フロー', 5],
    ['emoji', 'done ✓ 🚀 ok', 8],
    ['mixed', 'ralph 3/10 · 日本', 14],
  ])('%s', (_n, s, w) => {
    const out = fit(s, w);
    expect(stringWidth(out)).toBe(w);
  });
});

describe('cleanLine: the shortcut for text with nothing to clean', () => {
  // Every character class a step of cleanLine acts on, and neighbours of each range's edges that it leaves alone.
  const special = [
    'a',
    ' ',
    '—',
    '語',
    '🎉',
    '\u001b',
    '\u001b[31m',
    '\u001b]0;title\u0007',
    '\u009b',
    '\u009c',
    '\u0090',
    '\u007f',
    '\u00a0',
    '\u0000',
    '\u001f',
    '\r',
    '\n',
    '\t',
    '\u2028',
    '\u2029',
    '\u202a',
    '\u202e',
    '\u202f',
    '\u2066',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u0301',
    '\u200d',
  ];
  const text = fc.array(fc.oneof(fc.constantFrom(...special), fc.string({ unit: 'binary', maxLength: 3 })), {
    maxLength: 40,
  });

  it('gives the answer of every step for any text', () => {
    fc.assert(
      fc.property(text, (parts) => {
        const s = parts.join('');
        expect(cleanLine(s)).toBe(cleanLineFull(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('returns plain text as it is', () => {
    const prompt = 'ralph: make the checkout flow e2e tests pass — and keep the bundle under budget';
    expect(cleanLine(prompt)).toBe(prompt);
    expect(cleanLine('a\u001b[31mb\tc')).toBe('ab c');
  });
});

describe('terminalSafeJson: no disputed-width character raw', () => {
  it('escapes joiners, variation selectors, skin tones and flags, and parses back to the same value', () => {
    const value = { t: 'a👨\u200d👩 ✔\ufe0f 👍🏽 🇫🇷 x\u200by' };
    const json = terminalSafeJson(value, 0);
    expect(json).not.toMatch(/\u200b|\u200d|\ufe0f|\u{1f3fd}|[\u{1f1e6}-\u{1f1ff}]/u);
    expect(json).toContain('\\u200d');
    expect(json).toContain('\\ud83c\\udffd');
    expect(JSON.parse(json)).toEqual(value);
  });
});
