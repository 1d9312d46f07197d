/** A count with its noun: one is singular ("1 character", which read "1 characters"), the rest plural, grouped. */
import { describe, expect, it } from 'vitest';
import { countWord } from '../../src/io/count-words.js';

describe('countWord', () => {
  it('says one in the singular, every other count in the plural, digits grouped', () => {
    expect(countWord(1, 'character')).toBe('1 character');
    expect(countWord(0, 'character')).toBe('0 characters');
    expect(countWord(2, 'character')).toBe('2 characters');
    expect(countWord(12_345, 'character')).toBe('12,345 characters');
    expect(countWord(1, 'more character', 'more characters')).toBe('1 more character');
  });
});
