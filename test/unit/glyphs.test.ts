/**
 * The ASCII fallback of a terminal whose locale is not UTF-8 (src/io/glyphs.ts): which locale says so, and that
 * the ASCII text takes the cells the glyphs took, so the frame Ink measured holds.
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { asciiText, forLocale, localeIsUtf8 } from '../../src/io/glyphs.js';

describe('localeIsUtf8', () => {
  it('the first of LC_ALL, LC_CTYPE and LANG that is set decides; none set is UTF-8', () => {
    expect(localeIsUtf8({})).toBe(true);
    expect(localeIsUtf8({ LANG: 'C' })).toBe(false);
    expect(localeIsUtf8({ LANG: 'POSIX' })).toBe(false);
    expect(localeIsUtf8({ LANG: 'en_US.ISO-8859-1' })).toBe(false);
    expect(localeIsUtf8({ LANG: 'C.UTF-8' })).toBe(true);
    expect(localeIsUtf8({ LANG: 'en_US.utf8' })).toBe(true);
    expect(localeIsUtf8({ LANG: 'de_DE.UTF-8@euro' })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: 'C', LC_CTYPE: 'C.UTF-8', LANG: 'C.UTF-8' })).toBe(false);
    expect(localeIsUtf8({ LC_ALL: '', LC_CTYPE: 'C.UTF-8', LANG: 'C' })).toBe(true);
    expect(localeIsUtf8({ LC_CTYPE: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
  });
});

describe('asciiText', () => {
  it("omc-top's own glyphs become one ASCII character each: the same cells", () => {
    const chrome = '· … ▸ ❯ → ← ↑ ↓ ⚠ ✓ ✗ × — – − ─ ▌ █ ░ ≥ ≤ ≈ ½ ’ ✎ ⏻ ↻ ␛ ␇ §';
    const out = asciiText(chrome);
    expect(out).toMatch(/^[\x20-\x7e]*$/);
    expect(out).not.toContain('?');
    expect(stringWidth(out)).toBe(stringWidth(chrome));
    expect(asciiText('needs you: 2 · 10 sess ▸ ralph 3/10 …')).toBe('needs you: 2 | 10 sess > ralph 3/10 ~');
  });

  it('any other character is ? per cell (a wide one two, a letter and its mark one); escape sequences pass', () => {
    expect(asciiText('café')).toBe('caf?');
    expect(asciiText('cafe\u0301!')).toBe('cafe?!');
    expect(asciiText('日本')).toBe('????');
    expect(asciiText('\u001b[7mé\u001b[27m\u001b]2;omc-top · x\u0007')).toBe(
      '\u001b[7m?\u001b[27m\u001b]2;omc-top | x\u0007',
    );
    expect(asciiText('plain ascii')).toBe('plain ascii');
  });

  it('forLocale: as it is in a UTF-8 locale, ASCII in another', () => {
    expect(forLocale({ LANG: 'C.UTF-8' })('a · b')).toBe('a · b');
    expect(forLocale({ LC_ALL: 'C' })('a · b')).toBe('a | b');
  });
});
