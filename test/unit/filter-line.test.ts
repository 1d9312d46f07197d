import { describe, expect, it } from 'vitest';
import { typedFilter } from '../../src/ui/filter-line.js';

describe('typedFilter (the text of a list filter line)', () => {
  it('keeps a trailing space the user typed', () => {
    expect(typedFilter('ralph ', 20)).toBe('ralph ');
    expect(typedFilter('not  ', 20)).toBe('not  ');
  });

  it('cuts a filter wider than its room with … and no padding', () => {
    expect(typedFilter('checkout flow ', 6)).toBe('check…');
  });

  it('lets no control byte through', () => {
    expect(typedFilter('a\u001b[31mb ', 20)).not.toMatch(/[\u0000-\u001f\u007f]/);
  });
});
