/**
 * The wiki index holds each page body once (lower-cased, plus the capitals:
 * src/store/wiki/fold.ts) and rebuilds snippets and the page view from it.
 * What the user sees must not change: snippets, scores and order equal OMC's
 * queryWiki on bodies whose case folding is unusual (capitals everywhere,
 * non-ASCII letters that fold to ASCII, astral capitals, U+0130 that grows
 * when lower-cased), also after a page is edited once its index was built,
 * and any slice of a folded body equals the same slice of the original.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { WikiDomain } from '../../src/store/wiki/domain.js';
import { foldText, originalSlice } from '../../src/store/wiki/fold.js';
import { serializeWikiPage } from '../../src/store/wiki/frontmatter.js';
import { omcWikiQuery, scratchProject } from '../helpers/omc-knowledge.js';
import { frontmatter } from '../helpers/wiki-frontmatter.js';

const fm = (title: string, tags: string[] = []) => frontmatter({ title, tags });

interface Row {
  file: string;
  score: number;
  snippet: string;
}

async function omcs(projectDir: string, query: string): Promise<Row[]> {
  const { queryWiki } = await omcWikiQuery();
  return (queryWiki(projectDir, query, { limit: 50 }) as any[]).map((m) => ({
    file: m.page.filename,
    score: m.score,
    snippet: m.snippet,
  }));
}

const rows = (d: WikiDomain, q: string): Row[] =>
  d.search(q, { limit: 50 }).hits.map((h) => ({ file: h.page.filename, score: h.score, snippet: h.snippet }));

/** Folds every page's body, as the domain's warm-up after its first read does. */
const warm = (d: WikiDomain) => {
  for (const p of d.getSnapshot().searchable) p.foldBody();
};

const BODIES: Record<string, [string, string[], string]> = {
  'all-caps.md': ['ALL CAPS', ['loud'], '\nTHE NEEDLE IS HERE IN CAPITALS, EVERY LETTER OF IT. ' + 'SHOUT '.repeat(60)],
  'kelvin.md': ['Kelvin', [], '\nTemperature in \u212a (Kelvin sign) and \u212b ångström; needle \u212aELVIN\n'],
  'deseret.md': ['Astral', [], '\n\u{10400}\u{10401} astral capitals, then needle \u{10402}x\n'],
  'dotted.md': ['Dotted', [], '\nİstanbul İİ needle after the dotted capitals İ\n'],
  'mixed.md': [
    'Mixed',
    ['Tag'],
    '\n' + 'Lorem Ipsum Dolor Sit. '.repeat(30) + 'The NeEdLe sits In The Middle. ' + 'Amet Consectetur. '.repeat(30),
  ],
  'first-line.md': ['Tag only', ['needle'], '\n\n   \n  Leading Blank Lines, Then A Line With Capitals  \nmore\n'],
};

describe('folded page bodies: snippets equal OMC queryWiki', () => {
  const p = scratchProject();
  afterAll(() => p.cleanup());
  for (const [file, [title, tags, body]] of Object.entries(BODIES))
    fs.writeFileSync(path.join(p.wiki, file), serializeWikiPage(fm(title, tags), body));
  const d = new WikiDomain({ root: p.root });
  d.scan();
  warm(d);

  for (const q of ['needle', 'capitals', 'kelvin', 'after the dotted', 'in the middle', 'ångström', 'shout']) {
    it(JSON.stringify(q), async () => {
      const expected = await omcs(p.dir, q);
      expect(expected.length).toBeGreaterThan(0);
      expect(rows(d, q)).toEqual(expected);
    });
  }

  it('the page view text is the original body, capitals and all', () => {
    for (const [file, [, , body]] of Object.entries(BODIES)) {
      const page = d.getSnapshot().byName.get(file)!;
      expect(page.contentLower.length).toBeGreaterThan(0);
      expect(page.content).toBe(body);
    }
  });

  it('a page edited after its index was built ranks and snips as OMC on the new text', async () => {
    const before = rows(d, 'needle').find((r) => r.file === 'mixed.md');
    expect(before?.snippet).toContain('NeEdLe');
    fs.writeFileSync(
      path.join(p.wiki, 'mixed.md'),
      serializeWikiPage(fm('Mixed', ['Tag']), '\nSHORTER NOW. A Needle Moved To The Start.\n'),
    );
    d.refresh([{ type: 'change', rel: 'wiki/mixed.md' }], 'trailing');
    warm(d);
    const expected = await omcs(p.dir, 'needle');
    expect(rows(d, 'needle')).toEqual(expected);
    expect(expected.find((r) => r.file === 'mixed.md')?.snippet).toContain('A Needle Moved');
  });
});

describe('originalSlice(foldText(s)) is s.slice (fast-check)', () => {
  const unit = fc.oneof(
    fc.constantFrom(...'aAzZ ßẞİıKkÅåΣσς\n\t'.split(''), '\u212a', '\u212b', '\u{10400}', '\u{10428}', '\ud800'),
    fc.string({ unit: 'binary', maxLength: 3 }),
  );
  const text = fc.array(unit, { maxLength: 300 }).map((a) => a.join(''));
  it('for any text and any slice bounds', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -20, max: 320 }), fc.integer({ min: -20, max: 320 }), (s, a, b) => {
        const f = foldText(s);
        expect(f.lower).toBe(s.toLowerCase());
        expect(originalSlice(f)).toBe(s);
        expect(originalSlice(f, a, b)).toBe(s.slice(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps no second copy for ordinary prose, and falls back to the original when folding cannot stand for it', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    const f = foldText(prose);
    expect(f.original).toBeNull();
    expect((f.folds as string).length).toBe(3 * 50);
    expect(foldText('SHOUTING '.repeat(20)).original).not.toBeNull();
    expect(foldText('İ grows when lower-cased').original).not.toBeNull();
    expect(foldText('already lower').folds).toBe('');
  });
});
