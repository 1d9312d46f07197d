/**
 * A directive's key (src/store/memory/rules.ts) is written and read back in one module: directiveKey makes it,
 * parseDirectiveKey gives back the timestamp and text it was made of, for any timestamp the schema takes and any
 * text (a NUL in it too); a string that is no key is null, never a NaN timestamp.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { directiveKey, parseDirectiveKey } from '../../src/store/memory/rules.js';

describe('directiveKey and parseDirectiveKey', () => {
  it('round-trip: any finite timestamp, any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1_764_526_500_000)),
        fc.string({ unit: 'binary' }),
        (timestamp, directive) => {
          const back = parseDirectiveKey(directiveKey({ timestamp, directive }));
          expect(back).not.toBeNull();
          // -0 is written "0": the same number as the key tells it.
          expect(back!.timestamp).toBe(timestamp === 0 ? 0 : timestamp);
          expect(back!.directive).toBe(directive);
        },
      ),
    );
  });

  it('the first NUL ends the timestamp: a text holding NULs comes back whole', () => {
    expect(parseDirectiveKey(directiveKey({ timestamp: 1_700_000_000_000, directive: 'a\u0000b\u0000' }))).toEqual({
      timestamp: 1_700_000_000_000,
      directive: 'a\u0000b\u0000',
    });
  });

  it('a string that is no key is null', () => {
    for (const s of ['', 'no separator', '\u0000text', 'soon\u0000text', 'NaN\u0000x', 'Infinity\u0000x'])
      expect(parseDirectiveKey(s), JSON.stringify(s)).toBeNull();
  });
});
