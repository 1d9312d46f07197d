/**
 * The pieces under the wiki ranking, each against OMC's compiled function:
 * the tokenizer, the title → file-name rule, the frontmatter reader, and the
 * lint checks (whose findings omc-top shows as badges and as a list).
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { WikiDomain } from '../../src/store/wiki/domain.js';
import { parseWikiPage, serializeWikiPage } from '../../src/store/wiki/frontmatter.js';
import { titleToSlug, wikiLinkTargets } from '../../src/store/wiki/slug.js';
import { tokenize } from '../../src/store/wiki/tokenize.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, readReader } from '../helpers/fixtures.js';
import { omcWikiIngest, omcWikiLint, omcWikiQuery, omcWikiStorage, scratchProject } from '../helpers/omc-knowledge.js';
import { frontmatter } from '../helpers/wiki-frontmatter.js';

const mixed = fc.constantFrom(...'aZ09 éÉÀɏ認証設計フローひら인증토큰привет,.!?-_#[]"\'\\:\n\r\t İẞß🙂'.split(''));
const mixedText = (max: number) =>
  fc
    .array(fc.oneof(mixed, fc.string({ maxLength: 2 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), {
      maxLength: max,
    })
    .map((a) => a.join(''));

afterEach(() => {
  vi.useRealTimers();
});

describe('tokenizer', () => {
  it('equals OMC tokenize on the contract examples', async () => {
    const omc = await omcWikiQuery();
    for (const q of ['auth token', 'Auth Architecture', '認証', 'Привет, token', '인증 설계', 'C++ / C#', '!!!', '']) {
      expect(tokenize(q)).toEqual(omc.tokenize(q));
    }
    expect(tokenize('認証')).toEqual(['認', '証', '認証']);
    expect(tokenize('Привет, token')).toEqual(['token', 'привет,']);
  });

  it('equals OMC tokenize on any text (fast-check)', async () => {
    const omc = await omcWikiQuery();
    fc.assert(
      fc.property(mixedText(40), (s) => {
        expect(tokenize(s)).toEqual(omc.tokenize(s));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('slug rules for new titles', () => {
  it('follows the contract examples, including the page-<hash> fallback', () => {
    expect(titleToSlug('Auth Architecture')).toBe('auth-architecture.md');
    expect(titleToSlug('Café naïve!!')).toBe('caf-na-ve.md');
    expect(titleToSlug('日本 API design')).toBe('api-design.md');
    expect(titleToSlug('認証アーキテクチャ')).toBe('page-48c5e04f.md');
    expect(titleToSlug('---')).toBe('page-0000ae8d.md');
    expect(titleToSlug('x'.repeat(100))).toBe('x'.repeat(64) + '.md');
    // The real fixture: a pure-CJK title and a mixed one.
    expect(titleToSlug('決済フロー設計')).toBe('page-1f64ce4f.md');
    expect(titleToSlug('Currency Formatting (通貨フォーマット) & i18n')).toBe('currency-formatting-i18n.md');
  });

  it('equals OMC titleToSlug on any title (fast-check)', async () => {
    const omc = await omcWikiStorage();
    fc.assert(
      fc.property(fc.oneof(mixedText(80), fc.string(), fc.string({ unit: 'binary' })), (t) => {
        expect(titleToSlug(t)).toBe(omc.titleToSlug(t));
      }),
      {
        numRuns: 3000,
      },
    );
  });

  it('turns [[links]] into the file names OMC stores in `links`', async () => {
    const p = scratchProject();
    try {
      const { ingestKnowledge } = await omcWikiIngest();
      const content =
        'See [[Auth Architecture]], [[認証アーキテクチャ]] and [[ Café naïve!! ]] and [[Auth Architecture]].';
      ingestKnowledge(p.dir, { title: 'Links', content, tags: [], category: 'reference' });
      const stored = parseWikiPage(fs.readFileSync(path.join(p.wiki, 'links.md'), 'utf8'), 'now');
      expect(wikiLinkTargets(content)).toEqual(stored?.frontmatter.links);
    } finally {
      p.cleanup();
    }
  });
});

describe('frontmatter reader', () => {
  const yamlLine = fc.oneof(
    fc
      .constantFrom(
        'title',
        'tags',
        'created',
        'updated',
        'sources',
        'links',
        'category',
        'confidence',
        'schemaVersion',
        '__proto__',
        'constructor',
        ' title ',
      )
      .chain((k) =>
        fc.oneof(
          mixedText(20).map((v) => `${k}: ${v}`),
          fc.array(mixedText(6), { maxLength: 3 }).map((xs) => `${k}: [${xs.map((x) => `"${x}"`).join(', ')}]`),
          mixedText(10).map((v) => `${k}: "${v}"`),
          mixedText(10).map((v) => `${k}: '${v}'`),
        ),
      ),
    mixedText(15),
  );
  const raw = fc.oneof(
    fc.tuple(fc.array(yamlLine, { maxLength: 8 }), mixedText(60), fc.boolean()).map(([lines, body, crlf]) => {
      const s = `---\n${lines.join('\n')}\n---\n${body}`;
      return crlf ? s.replace(/\n/g, '\r\n') : s;
    }),
    mixedText(80),
    mixedText(20).map((s) => `---\n${s}\n---`),
  );

  it('equals OMC parseFrontmatter on any text, including CRLF and broken fences (fast-check)', async () => {
    const omc = await omcWikiStorage();
    vi.useFakeTimers({ toFake: ['Date'], now: READERS_CAPTURED_AT });
    const nowIso = new Date().toISOString();
    fc.assert(
      fc.property(raw, (text) => {
        const expected = omc.parseFrontmatter(text);
        const got = parseWikiPage(text, nowIso);
        expect(got).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads back what it serialises, the way OMC writes pages', async () => {
    const omc = await omcWikiStorage();
    const fm = {
      title: 'Quotes "and" back\\slash\nnewline',
      tags: ['a', 'b c'],
      created: '2026-11-01T00:00:00.000Z',
      updated: '2026-11-02T00:00:00.000Z',
      sources: ['s1'],
      links: ['x.md'],
      category: 'decision',
      confidence: 'high',
      schemaVersion: 1,
    };
    const text = serializeWikiPage(fm, '\n# T\n\nbody\n');
    expect(text).toBe(omc.serializePage({ filename: 'x.md', frontmatter: fm, content: '\n# T\n\nbody\n' }));
    expect(parseWikiPage(text, 'now')).toEqual({ frontmatter: fm, content: '\n# T\n\nbody\n' });
  });
});

describe('lint', () => {
  const key = (i: { page: string; type: string; severity: string }) => `${i.page}|${i.type}|${i.severity}`;

  it("finds what OMC's wiki_lint found on the real fixture (readers/wiki.json)", () => {
    const d = new WikiDomain({ root: FIXTURE_TREE });
    d.scan();
    const report = d.lint(READERS_CAPTURED_AT);
    const text: string = readReader('wiki.json').wiki_lint.text;
    const summary = /(\d+) orphan, (\d+) stale, (\d+) broken refs, (\d+) contradictions, (\d+) oversized/.exec(text)!;
    expect([
      report.counts.orphan,
      report.counts.stale,
      report.counts['broken-ref'],
      report.counts['structural-contradiction'],
      report.counts.oversized,
    ]).toEqual(summary.slice(1).map(Number));
    expect(report.byPage.get('api-client-conventions.md')?.map((i) => i.type)).toEqual(['broken-ref']);
    expect(
      report.byPage
        .get('vitest-flaky-test-debugging.md')
        ?.map((i) => i.type)
        .sort(),
    ).toEqual(['low-confidence', 'orphan']);
  });

  it('equals OMC lintWiki, issue for issue, on pages with every finding', async () => {
    const p = scratchProject();
    try {
      const now = Date.parse('2026-11-30T12:00:00.000Z');
      const page = (file: string, over: Record<string, unknown>, body = '\n# Body\n\ntext\n') =>
        fs.writeFileSync(
          path.join(p.wiki, file),
          serializeWikiPage(
            frontmatter({
              title: file,
              created: '2026-11-29T00:00:00.000Z',
              updated: '2026-11-29T00:00:00.000Z',
              ...over,
            }),
            body,
          ),
        );
      page('api-auth-a.md', { confidence: 'high', tags: ['auth'], category: 'architecture', links: ['api-auth-b.md'] });
      page('api-auth-b.md', {
        confidence: 'low',
        tags: ['auth'],
        category: 'decision',
        links: ['missing.md', 'api-auth-a.md'],
      });
      page('old.md', { updated: '2026-09-01T00:00:00.000Z', links: ['old.md'] });
      page('big.md', {}, 'x'.repeat(11_000));
      page('bad-date.md', { updated: 'not a date' });
      fs.writeFileSync(path.join(p.wiki, 'broken.md'), 'no frontmatter');
      vi.useFakeTimers({ toFake: ['Date'], now });
      const omc = (await omcWikiLint()).lintWiki(p.dir);
      const d = new WikiDomain({ root: p.root, clock: () => now });
      d.scan();
      const ours = d.lint(now);
      expect(ours.issues.map(key).sort()).toEqual(omc.issues.map(key).sort());
      expect(ours.counts.stale).toBe(1);
      expect(ours.counts.oversized).toBe(1);
      expect(ours.counts['structural-contradiction']).toBe(2);
    } finally {
      p.cleanup();
    }
  });

  it("a page without updated/created: never stale, as in OMC's lintWiki, however long after omc-top read it", async () => {
    const p = scratchProject();
    try {
      const readAt = Date.parse('2026-11-30T12:00:00.000Z');
      const lintAt = readAt + 40 * 24 * 3_600_000;
      // Only title, tags and category: OMC fills both dates with the time of each of its reads.
      const undated = '---\ntitle: "Undated"\ntags: [notes]\ncategory: reference\nlinks: [undated.md]\n---\n\nbody\n';
      fs.writeFileSync(path.join(p.wiki, 'undated.md'), undated);
      const d = new WikiDomain({ root: p.root, clock: () => readAt });
      d.scan();
      vi.useFakeTimers({ toFake: ['Date'], now: lintAt });
      const omc = (await omcWikiLint()).lintWiki(p.dir);
      const ours = d.lint(lintAt);
      expect(omc.issues.filter((i: { type: string }) => i.type === 'stale')).toEqual([]);
      expect(ours.counts.stale).toBe(0);
      expect(ours.issues.map(key).sort()).toEqual(omc.issues.map(key).sort());
    } finally {
      p.cleanup();
    }
  });
});

afterAll(() => vi.useRealTimers());
