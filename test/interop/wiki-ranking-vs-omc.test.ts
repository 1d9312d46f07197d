/**
 * omc-top's wiki search must rank exactly as OMC's wiki_query: same pages,
 * same order, same scores, same snippets. Checked three ways: against the
 * outputs OMC's tool produced on the real fixture (readers/wiki.json), against
 * OMC's compiled queryWiki run live on pages this test writes (CJK, Korean,
 * punctuation, tags-only matches, no matches), and by random pages and
 * queries (fast-check). OMC's query appends to log.md, so it always runs on a
 * scratch copy; omc-top's search must leave log.md alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WikiDomain } from '../../src/store/wiki/domain.js';
import { serializeWikiPage, type WikiFrontmatter } from '../../src/store/wiki/frontmatter.js';
import { searchWiki } from '../../src/store/wiki/search.js';
import { FIXTURE_TREE, readReader } from '../helpers/fixtures.js';
import { omcWikiQuery, scratchProject, unpackLargeTree } from '../helpers/omc-knowledge.js';
import { frontmatter } from '../helpers/wiki-frontmatter.js';

interface Row {
  file: string;
  score: number;
  snippet: string;
}

function ours(root: string, query: string, opts: { tags?: string[]; category?: string; limit?: number } = {}): Row[] {
  const d = new WikiDomain({ root });
  d.scan();
  return d.search(query, opts).hits.map((h) => ({ file: h.page.filename, score: h.score, snippet: h.snippet }));
}

async function omcs(
  projectDir: string,
  query: string,
  opts: { tags?: string[]; category?: string; limit?: number } = {},
): Promise<Row[]> {
  const { queryWiki } = await omcWikiQuery();
  return (queryWiki(projectDir, query, opts) as any[]).map((m) => ({
    file: m.page.filename,
    score: m.score,
    snippet: m.snippet,
  }));
}

/** The rows of a wiki_query tool reply: "### n. Title (…)\n**File:** f | **Tags:** … | **Score:** s\n**Snippet:** …". */
function parseToolText(text: string): Row[] {
  const rows: Row[] = [];
  const re = /\*\*File:\*\* (.+?) \| \*\*Tags:\*\* .*? \| \*\*Score:\*\* (\d+)\n\*\*Snippet:\*\* (.*)/g;
  for (const m of text.matchAll(re)) rows.push({ file: m[1] as string, score: Number(m[2]), snippet: m[3] as string });
  return rows;
}

describe('wiki ranking equals OMC wiki_query on the real fixture (readers/wiki.json)', () => {
  const reader = readReader('wiki.json');
  for (const [name, call] of Object.entries<any>(reader.wiki_query)) {
    it(`query ${name}: ${JSON.stringify(call.args)}`, () => {
      const expected = parseToolText(call.text);
      const got = ours(FIXTURE_TREE, call.args.query, {
        tags: call.args.tags,
        category: call.args.category,
        limit: call.args.limit,
      });
      expect(got).toEqual(expected);
      if (expected.length === 0) expect(call.text).toMatch(/^No wiki pages match/);
    });
  }

  it('never writes to log.md (OMC query appends there; a monitor must not)', () => {
    const log = path.join(FIXTURE_TREE, 'wiki', 'log.md');
    const before = fs.readFileSync(log);
    const st = fs.statSync(log);
    const d = new WikiDomain({ root: FIXTURE_TREE });
    d.scan();
    for (const q of ['checkout', '決済フロー', 'flaky test', '']) d.search(q);
    d.lint();
    expect(fs.readFileSync(log).equals(before)).toBe(true);
    expect(fs.statSync(log).mtimeMs).toBe(st.mtimeMs);
  });
});

const fm = (over: Partial<WikiFrontmatter>) => frontmatter(over);

describe('wiki ranking equals OMC queryWiki run live on generated pages', () => {
  const p = scratchProject();
  const write = (file: string, f: WikiFrontmatter, body: string) =>
    fs.writeFileSync(path.join(p.wiki, file), serializeWikiPage(f, body));
  beforeAll(() => {
    write(
      'auth-architecture.md',
      fm({ title: 'Auth Architecture', tags: ['auth', 'jwt'], category: 'architecture' }),
      '\n# Auth Architecture\n\nTokens are JWT. The auth token refresh runs every 5 minutes.\n',
    );
    write(
      'token-cache.md',
      fm({ title: 'Token cache', tags: ['cache'] }),
      '\n# Token cache\n\nCache the token per user. token token.\n',
    );
    write(
      'page-48c5e04f.md',
      fm({ title: '認証アーキテクチャ', tags: ['認証', 'auth'], category: 'architecture' }),
      '\n# 認証アーキテクチャ\n\n認証はJWTで行う。トークンは5分ごとに更新。\n',
    );
    write(
      'korean.md',
      fm({ title: '인증 설계', tags: ['보안'], category: 'decision' }),
      '\n# 인증 설계\n\n토큰 갱신은 5분마다 한다. 인증 서버는 별도.\n',
    );
    write(
      'cyrillic.md',
      fm({ title: 'Привет, мир', tags: ['ru'] }),
      '\n# Привет, мир\n\nПривет, token! Как дела? Мир.\n',
    );
    write(
      'tags-only.md',
      fm({ title: 'Nothing here', tags: ['observability', 'grafana'] }),
      '\n# Nothing here\n\nA page whose text never says the word.\n',
    );
    write(
      'punct.md',
      fm({ title: 'C++ / C# (notes!)', tags: ['lang'] }),
      '\n# C++ / C# (notes!)\n\nUse -- carefully; e.g. a--b, "quoted", [[Auth Architecture]].\n',
    );
    write(
      'accents.md',
      fm({ title: 'Café naïve résumé', tags: ['i18n'] }),
      '\n# Café naïve résumé\n\nÉLAN and façade. CAFÉ!\n',
    );
    write(
      'mixed-case.md',
      fm({ title: 'İstanbul ẞtraße', tags: ['Mixed'] }),
      '\n# İstanbul ẞtraße\n\nİİİ token ß İstanbul\n',
    );
    write(
      'long-body.md',
      fm({ title: 'Long body' }),
      '\n# Long body\n\n' + 'lorem ipsum '.repeat(40) + 'needle in the middle ' + 'dolor sit '.repeat(40) + '\n',
    );
    fs.writeFileSync(
      path.join(p.wiki, 'crlf.md'),
      serializeWikiPage(
        fm({ title: 'CRLF page', tags: ['windows'] }),
        '\n# CRLF page\n\nline one token\nline two\n',
      ).replace(/\n/g, '\r\n'),
    );
    // Pages OMC cannot read: both sides must skip them.
    fs.writeFileSync(path.join(p.wiki, 'no-frontmatter.md'), '# Just markdown\n\ntoken token token\n');
    fs.writeFileSync(path.join(p.wiki, 'unclosed.md'), '---\ntitle: "Unclosed token"\ntags: [token]\n\nbody token\n');
    fs.writeFileSync(path.join(p.wiki, 'no-newline-after-fence.md'), '---\ntitle: "Token"\n---');
    fs.writeFileSync(
      path.join(p.wiki, 'bom.md'),
      '\ufeff' + serializeWikiPage(fm({ title: 'BOM token page' }), '\ntoken\n'),
    );
    // Invalid UTF-8 bytes inside an otherwise good page: both read them as U+FFFD.
    fs.writeFileSync(
      path.join(p.wiki, 'latin1.md'),
      Buffer.concat([
        Buffer.from(serializeWikiPage(fm({ title: 'Latin-1 token' }), '\nCaf')),
        Buffer.from([0xe9, 0x20, 0xff, 0xfe, 0xc3]),
        Buffer.from(' token end\n'),
      ]),
    );
    // NUL bytes in a good page: OMC reads them as characters and ranks the page; so must omc-top.
    write(
      'nul-bytes.md',
      fm({ title: 'Nul token page', tags: ['zebra'] }),
      '\n# Nul\n\nbefore\u0000zebra token\u0000after\n',
    );
  });
  afterAll(() => p.cleanup());

  const queries: Array<[string, { tags?: string[]; category?: string; limit?: number }?]> = [
    ['zebra'],
    ['auth token'],
    ['Auth Architecture'],
    ['認証'],
    ['認証アーキテクチャ'],
    ['인증'],
    ['인증 설계'],
    ['토큰'],
    ['Привет, token'],
    ['привет'],
    ['observability'],
    ['grafana dashboards'],
    ['C++'],
    ['(notes!)'],
    ['--'],
    ['!!!'],
    ['café'],
    ['CAFÉ naïve'],
    ['istanbul'],
    ['ß'],
    ['needle'],
    ['token', { tags: ['auth'] }],
    ['token', { tags: ['AUTH', 'cache', 'nope'] }],
    ['token', { category: 'architecture' }],
    ['token', { limit: 2 }],
    ['zzzzqqq'],
    [''],
    ['   '],
    ['token token'],
    ['end'],
    ['windows line'],
  ];
  for (const [q, opts] of queries) {
    it(`${JSON.stringify(q)} ${opts ? JSON.stringify(opts) : ''}`, async () => {
      const expected = await omcs(p.dir, q, { limit: 50, ...opts });
      expect(ours(p.root, q, { limit: 50, ...opts })).toEqual(expected);
    });
  }

  it('covers the cases it claims: tags-only, CJK, Korean, no-match, unreadable pages skipped', async () => {
    expect((await omcs(p.dir, 'observability')).map((r) => r.file)).toEqual(['tags-only.md']);
    expect((await omcs(p.dir, '인증')).length).toBeGreaterThan(0);
    expect((await omcs(p.dir, '認証')).length).toBeGreaterThan(0);
    expect(await omcs(p.dir, 'zzzzqqq')).toEqual([]);
    const files = (await omcs(p.dir, 'token', { limit: 50 })).map((r) => r.file);
    expect(files).toContain('latin1.md');
    expect(files).toContain('nul-bytes.md');
    for (const skipped of ['no-frontmatter.md', 'unclosed.md', 'no-newline-after-fence.md', 'bom.md'])
      expect(files).not.toContain(skipped);
  });
});

describe('wiki ranking equals OMC on the large real tree (1,000 OMC-written pages)', () => {
  const t = unpackLargeTree();
  afterAll(() => t.cleanup());
  const d = new WikiDomain({ root: t.root });
  d.scan();
  for (const q of [
    'checkout',
    '認証',
    '認証フロー',
    'payments module',
    'flaky',
    'react release',
    'database migrations',
    'the',
    'zzz',
  ]) {
    it(JSON.stringify(q), async () => {
      const expected = await omcs(t.dir, q, { limit: 50 });
      const got = d
        .search(q, { limit: 50 })
        .hits.map((h) => ({ file: h.page.filename, score: h.score, snippet: h.snippet }));
      expect(got).toEqual(expected);
    });
  }
});

describe('random pages and queries (fast-check) rank as OMC does', () => {
  const p = scratchProject();
  afterAll(() => p.cleanup());
  const chars = fc.constantFrom(...'abcxyz ABC 0123 éÉñ 認証設計フロー 인증토큰 привет , . ! - _ # [ ] "\n'.split(''));
  const text = (max: number) => fc.array(chars, { maxLength: max }).map((a) => a.join(''));
  const word = fc.constantFrom('auth', 'token', 'Auth', '認証', '인증', 'привет,', 'café', 'x', 'a-b', '!', '');
  const page = fc.record({
    title: fc.oneof(text(20), word),
    tags: fc.array(fc.oneof(word, text(6)), { maxLength: 4 }),
    category: fc.constantFrom('architecture', 'decision', 'reference'),
    body: fc.oneof(
      text(200),
      fc.array(word, { maxLength: 30 }).map((w) => w.join(' ')),
    ),
  });

  it('same results for any pages and query', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(page, { minLength: 1, maxLength: 8 }),
        fc.oneof(
          text(12),
          word,
          fc.array(word, { maxLength: 3 }).map((w) => w.join(' ')),
        ),
        fc.option(fc.array(word, { maxLength: 2 }), { nil: undefined }),
        fc.option(fc.constantFrom('architecture', 'decision'), { nil: undefined }),
        async (pages, query, tags, category) => {
          for (const f of fs.readdirSync(p.wiki)) fs.rmSync(path.join(p.wiki, f));
          pages.forEach((pg, i) => {
            const tagsClean = pg.tags.map((t) => t.replace(/[,\n]/g, ' ').trim()).filter(Boolean);
            fs.writeFileSync(
              path.join(p.wiki, `p${i}.md`),
              serializeWikiPage(
                fm({ title: pg.title, tags: tagsClean, category: pg.category }),
                `\n# ${pg.title}\n\n${pg.body}\n`,
              ),
            );
          });
          const expected = await omcs(p.dir, query, { tags, category, limit: 50 });
          expect(ours(p.root, query, { tags, category, limit: 50 })).toEqual(expected);
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('keystroke reuse never changes a result', () => {
  const t = unpackLargeTree();
  afterAll(() => t.cleanup());
  const d = new WikiDomain({ root: t.root });
  d.scan();
  const pages = d.getSnapshot().searchable;
  const strip = (hits: { page: { filename: string }; score: number; snippet: string }[]) =>
    hits.map((h) => [h.page.filename, h.score, h.snippet]);

  it('typing, backspacing and retyping (remembered positions) ranks exactly as a fresh search (fast-check)', () => {
    const key = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...'abcdefghilmnoprstuy 認証フロー인증'.split('')) },
      { weight: 2, arbitrary: fc.constant('\b') },
    );
    fc.assert(
      fc.property(
        fc.array(key, { minLength: 1, maxLength: 25 }),
        fc.option(fc.constantFrom('architecture', 'reference'), { nil: undefined }),
        (keys, category) => {
          let q = '';
          for (const k of keys) {
            q = k === '\b' ? q.slice(0, -1) : q + k;
            const typed = d.search(q, { limit: Infinity, category });
            const fresh = searchWiki(pages, q, { limit: Infinity, category });
            expect(strip(typed.hits)).toEqual(strip(fresh.hits));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
