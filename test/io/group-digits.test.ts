import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupDigits } from '../../src/io/group-digits.js';

describe('groupDigits', () => {
  it('writes every safe integer as en-US toLocaleString does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer()), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees at the edges: zero, minus zero, group boundaries, the largest safe integers', () => {
    const edges = [0, -0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, 123_456_789, Number.MAX_SAFE_INTEGER];
    for (const n of [...edges, ...edges.map((x) => -x)]) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
    expect(groupDigits(1234567)).toBe('1,234,567');
  });

  it('leaves fractions, huge and non-finite numbers to ICU, with the same text', () => {
    for (const n of [1.5, 1234.5678, -0.25, 1e21, 2 ** 60, NaN, Infinity, -Infinity])
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
});
