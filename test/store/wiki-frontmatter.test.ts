import { describe, expect, it } from 'vitest';
import { parseWikiPage } from '../../src/store/wiki/frontmatter.js';

const NOW = '2026-12-03T00:00:00.000Z';

describe('the frontmatter reader keeps only the keys OMC reads', () => {
  it('later keys win, other keys and lines without a colon are skipped, a value may hold colons', () => {
    const page = parseWikiPage(
      [
        '---',
        'title: first',
        'no colon on this line',
        '__proto__: polluted',
        'owner: someone',
        'title: "second: with a colon"',
        'tags: [a, "b"]',
        '---',
        'body',
      ].join('\n'),
      NOW,
    );
    expect(page?.frontmatter).toMatchObject({ title: 'second: with a colon', tags: ['a', 'b'], category: 'reference' });
    expect(Object.keys(page?.frontmatter ?? {})).not.toContain('owner');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('finds a key after a long run of lines without a colon', () => {
    const filler = Array.from({ length: 20_000 }, (_, i) => `line ${i} without one`).join('\n');
    const page = parseWikiPage(`---\n${filler}\ncategory: decision\n---\nbody`, NOW);
    expect(page?.frontmatter.category).toBe('decision');
    expect(page?.content).toBe('body');
  });
});
