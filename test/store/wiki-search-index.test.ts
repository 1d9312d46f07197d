/**
 * The wiki search index (src/store/wiki/search-index.ts) must rank exactly as
 * the plain scan (every page's text searched for every token, OMC's own
 * procedure; test/interop/wiki-ranking-vs-omc holds the plain scan against
 * OMC itself): same pages, order, scores and snippets, for any pages and
 * queries, while pages come, go and change between queries (the index keeps
 * up one page at a time) and while a query is typed and backspaced.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPage, type WikiPage } from '../../src/store/wiki/page.js';
import { serializeWikiPage } from '../../src/store/wiki/frontmatter.js';
import { rankWiki } from '../../src/store/wiki/search.js';
import { WikiSearchIndex } from '../../src/store/wiki/search-index.js';
import { frontmatter } from '../helpers/wiki-frontmatter.js';
import { readOk } from '../helpers/read-ok.js';

const NOW = '2026-12-01T00:00:00.000Z';

/**
 * Text that exercises every class boundary of OMC's tokenizer: Latin letters and digits, accented Latin
 * (and × ÷, which its Latin range holds), CJK and Hangul, Cyrillic and Greek (final sigma), punctuation,
 * every kind of white space it splits on, capitals that lower-case to two code units, astral characters.
 */
const PIECES = [
  ...'abcdeflmnorstx019'.split(''),
  'ab',
  'abc',
  'the',
  'check',
  'checkout',
  'ÉTÉ',
  'é',
  '×',
  '÷',
  'ÿ',
  '認証',
  'フロー',
  'キ',
  '인증',
  'привет',
  'ПРИВЕТ,',
  'ΟΔΟΣ',
  'σ',
  'ς',
  'İ',
  'K',
  '\u{10400}',
  '.',
  ',',
  '-',
  '/',
  '!!',
  ' ',
  ' ',
  '\n',
  '\t',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\u001f',
];
const text = (max: number) => fc.array(fc.constantFrom(...PIECES), { maxLength: max }).map((xs) => xs.join(''));
const TAGS = ['api', 'Auth', 'check-out', '認証', 'x y', 'été'];
const CATEGORIES = ['architecture', 'reference'];

interface PageSpec {
  name: string;
  title: string;
  tags: string[];
  category: string;
  body: string;
}
const pageSpec = fc.record({
  name: fc.constantFrom('a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md', 'g.md', 'h.md'),
  title: text(6).map((t) => t.replace(/[\n\u2028]/g, ' ').trim() || 'T'),
  tags: fc.subarray(TAGS),
  category: fc.constantFrom(...CATEGORIES),
  body: text(40),
});

function page(s: PageSpec): WikiPage {
  const raw = serializeWikiPage(frontmatter({ title: s.title, tags: s.tags, category: s.category }), `\n${s.body}\n`);
  return buildPage(s.name, readOk(raw), NOW);
}

/** A wiki as the domain publishes it: searchable pages in file-name order, one object per page version. */
function pagesOf(wiki: Map<string, WikiPage>): WikiPage[] {
  return [...wiki.keys()]
    .sort()
    .map((n) => wiki.get(n) as WikiPage)
    .filter((p) => p.searchable);
}

function ranked(pages: readonly WikiPage[], q: string, category: string | undefined, index?: WikiSearchIndex) {
  const r = rankWiki(pages, q, { category }, index);
  const out: Array<[string, number, string]> = [];
  for (let i = 0; i < r.total; i++) out.push([r.page(i).filename, r.score(i), r.hit(i).snippet]);
  return out;
}

const query = fc.oneof(
  text(4),
  fc.constantFrom(
    'c',
    'ch',
    'che',
    'checkout',
    'the check',
    'σ',
    'ς',
    'οδος',
    'привет,',
    '認',
    '認証',
    'x y',
    'été',
    '!!',
  ),
);

describe('the wiki search index ranks exactly as the plain scan', () => {
  it('for any pages and queries, while pages are added, changed and removed (fast-check)', () => {
    const step = fc.oneof(
      { weight: 3, arbitrary: pageSpec.map((s) => ({ put: s })) },
      { weight: 1, arbitrary: fc.constantFrom('a.md', 'b.md', 'c.md', 'd.md').map((name) => ({ drop: name })) },
      {
        weight: 4,
        arbitrary: fc
          .tuple(query, fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }))
          .map(([q, category]) => ({ q, category })),
      },
    );
    fc.assert(
      fc.property(
        fc.array(pageSpec, { maxLength: 8 }),
        fc.array(step, { minLength: 1, maxLength: 30 }),
        (start, steps) => {
          const wiki = new Map<string, WikiPage>();
          for (const s of start) wiki.set(s.name, page(s));
          // Few remembered tokens, and a word left on no page dropped at once.
          const index = new WikiSearchIndex(4, Infinity, { after: 1, share: 0 });
          let pages = pagesOf(wiki);
          for (const st of steps) {
            if ('put' in st) {
              wiki.set(st.put.name, page(st.put));
              pages = pagesOf(wiki);
            } else if ('drop' in st) {
              wiki.delete(st.drop);
              pages = pagesOf(wiki);
            } else {
              expect(ranked(pages, st.q, st.category, index)).toEqual(ranked(pages, st.q, st.category));
              // Pages that went or changed left the index: it holds the pages of now, not every version seen.
              index.sync(pages);
              expect(index.pageCount).toBe(pages.length);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on wikis of hundreds of pages, queries of many words one after another (fast-check)', () => {
    // The indexed ranking sorts as it scores, into buckets per score kept between queries (score-buckets.ts):
    // many pages per score (the buckets grow), every score from 1 to 5 per word plus the phrase, and queries of
    // different sizes in a row (a bucket left from the previous query must not leak into the next).
    const WORDS = ['check', 'out', 'flow', 'auth', 'to', 'ken', 'é', '認証', 'c', 'x'];
    const words = (max: number) =>
      fc.array(fc.constantFrom(...WORDS, ' ', '-'), { maxLength: max }).map((xs) => xs.join(''));
    const many = fc.record({
      title: words(6).map((t) => t.trim() || 'T'),
      tags: fc.subarray(['check', 'auth-token', 'flow', 'x']),
      category: fc.constantFrom(...CATEGORIES),
      body: words(12),
    });
    const name = (i: number) => `p${String(i).padStart(3, '0')}.md`;
    const rankAll = (specs: Array<Omit<PageSpec, 'name'>>, queries: Array<[string, string | undefined]>) => {
      const pages = pagesOf(new Map(specs.map((s, i) => [name(i), page({ ...s, name: name(i) })])));
      const index = new WikiSearchIndex();
      index.sync(pages);
      for (const [q, category] of queries)
        expect(ranked(pages, q, category, index)).toEqual(ranked(pages, q, category));
    };
    // Always: 200 pages scoring the same (one bucket grows past its first 64), between queries of other ranges.
    const same = { title: 'T', tags: [], category: 'reference', body: 'check out' };
    rankAll(
      Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? { ...same, title: 'check' } : same)),
      [
        ['c', undefined],
        ['check out flow auth', undefined],
        ['out', 'reference'],
        ['c', undefined],
      ],
    );
    fc.assert(
      fc.property(
        fc.array(many, { minLength: 150, maxLength: 300 }),
        fc.array(
          fc.tuple(
            fc.oneof(
              // One letter: most pages, few scores (large buckets).
              fc.constantFrom('c', 'o', 't'),
              fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((ws) => ws.join(' ')),
            ),
            fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        (specs, queries) => rankAll(specs, queries),
      ),
      { numRuns: 40 },
    );
  });

  it('while a query is typed and backspaced, and while the index is still being built (fast-check)', () => {
    const key = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...PIECES) },
      { weight: 2, arbitrary: fc.constant('\b') },
    );
    fc.assert(
      fc.property(
        fc.array(pageSpec, { minLength: 1, maxLength: 20 }),
        fc.array(key, { maxLength: 20 }),
        (specs, keys) => {
          const wiki = new Map<string, WikiPage>();
          for (const s of specs) wiki.set(s.name, page(s));
          const pages = pagesOf(wiki);
          // No time for the index per search (the domain gives it 4 ms): a search adds a few pages and ranks by
          // the plain scan until the index is in step, then from the index. A past deadline: one slice adds a few.
          const index = new WikiSearchIndex(64, 0);
          index.sync(pages, 0);
          let q = '';
          for (const k of keys) {
            q = k === '\b' ? q.slice(0, -1) : q + k;
            expect(ranked(pages, q, undefined, index)).toEqual(ranked(pages, q, undefined));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
