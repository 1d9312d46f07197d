/**
 * The bundle skips Ink's sanitiser for a text it would return unchanged (scripts/ink-patches/text-memo.mjs:
 * plain text and SGR colours, omc-top's every row): the answer must be Ink's own for any text, escapes, C1 controls,
 * malformed sequences and OSC links included.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainSgrPassesThrough } from '../../scripts/ink-patches/text-memo.mjs';
import { REPO } from '../helpers/fixtures.js';

const { default: sanitizeAnsi } = (await import(
  path.join(REPO, 'node_modules', 'ink', 'build', 'sanitize-ansi.js')
)) as {
  default: (text: string) => string;
};
const fast = plainSgrPassesThrough(sanitizeAnsi);

/** Pieces that come near the fast path's edge: SGR and almost-SGR, other CSIs, OSC, C1, lone escapes. */
const piece = fc.oneof(
  fc.constantFrom(
    '\u001b[31m',
    '\u001b[0m',
    '\u001b[m',
    '\u001b[38:5:208m',
    '\u001b[32;1m',
    '\u001b[?25l',
    '\u001b[2J',
    '\u001b[31',
    '\u001b[',
    '\u001b',
    '\u001b]8;;https://x\u0007link\u001b]8;;\u0007',
    '\u001bc',
    '\u001b(B',
    '\u009b31m',
    '\u0085',
    '\u009c',
    '\u0080',
    '\u009f',
    '\u00a0',
    'ralph 3/10',
    '決済',
    '🚀',
    ' ',
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

describe('the sanitiser fast path', () => {
  it('gives what Ink gives, for any text', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(fast(text)).toBe(sanitizeAnsi(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('hands a plain or SGR-coloured text back as it is, and still cleans the rest', () => {
    const row = '\u001b[1m▸ \u001b[22mblocks  \u001b[38;5;208mralph 3/10\u001b[39m';
    expect(fast(row)).toBe(row);
    expect(fast('a\u001b[2Jb')).toBe(sanitizeAnsi('a\u001b[2Jb'));
    expect(fast('a\u001b[2Jb')).not.toContain('\u001b[2J');
    expect(fast('x\u009b2Jy')).not.toContain('\u009b');
  });
});
