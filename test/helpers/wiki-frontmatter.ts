import type { WikiFrontmatter } from '../../src/store/wiki/frontmatter.js';

/** A wiki page's frontmatter as OMC's wiki tools write it, with the test's own fields on top. */
export function frontmatter(over: Partial<WikiFrontmatter> = {}): WikiFrontmatter {
  return {
    title: 'Untitled',
    tags: [],
    created: '2026-11-01T10:00:00.000Z',
    updated: '2026-11-01T10:00:00.000Z',
    sources: [],
    links: [],
    category: 'reference',
    confidence: 'medium',
    schemaVersion: 1,
    ...over,
  };
}
