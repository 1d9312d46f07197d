/**
 * The search warm-up (WikiDomain.warmSearch, store/wiki/warm-up.ts): once the index is built, a few
 * queries typed from this wiki's titles run through the ranking once, so a user's first keys do not run
 * it cold. It must run every lookup path (one letter, two letters, words), leave the answers as they
 * were, and leave no remembered token answer behind: the user's first key does its own lookup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { WikiDomain } from '../../src/store/wiki/domain.js';
import { FieldIndex } from '../../src/store/wiki/field-index.js';
import { serializeWikiPage } from '../../src/store/wiki/frontmatter.js';
import { rankWiki } from '../../src/store/wiki/search.js';
import { warmUpQueries } from '../../src/store/wiki/warm-up.js';
import { waitFor, type TempProject } from '../helpers/fixtures.js';
import { frontmatter } from '../helpers/wiki-frontmatter.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const TITLES = [
  'Checkout flow retries',
  'Payments module notes',
  'Flaky test in CI',
  'Auth token refresh',
  '認証フロー',
];

function wiki(p: TempProject): WikiDomain {
  const dir = path.join(p.root, 'wiki');
  fs.mkdirSync(dir, { recursive: true });
  TITLES.forEach((title, i) => {
    const fm = frontmatter({
      title,
      tags: ['t'],
      created: '2026-11-01T00:00:00.000Z',
      updated: '2026-11-01T00:00:00.000Z',
    });
    fs.writeFileSync(path.join(dir, `p${i}.md`), serializeWikiPage(fm, `\n# ${title}\n\nchecks the ${title} path\n`));
  });
  const d = new WikiDomain({ root: p.root });
  d.scan();
  return d;
}

const ranked = (r: ReturnType<WikiDomain['rank']>) =>
  Array.from({ length: r.total }, (_, i) => [r.page(i).filename, r.score(i), r.hit(i).snippet]);

describe('search warm-up', () => {
  it('types titles of this wiki a character at a time: single letters, pairs, words and phrases', ({
    emptyProject: p,
  }) => {
    const d = wiki(p);
    const qs = warmUpQueries(d.getSnapshot().searchable);
    expect(qs).toContain('c');
    expect(qs).toContain('ch');
    expect(qs).toContain('checkout');
    expect(qs).toContain('checkout flow');
    expect(qs.every((q) => q.trim() !== '')).toBe(true);
    expect(new Set(qs).size).toBe(qs.length);
    expect(warmUpQueries([])).toEqual([]);
    d.dispose();
  });

  it('runs every lookup path once, changes no answer and leaves no remembered answer for the first key', async ({
    emptyProject: p,
  }) => {
    const d = wiki(p);
    const looked: string[] = [];
    const lookup = FieldIndex.prototype.lookup;
    vi.spyOn(FieldIndex.prototype, 'lookup').mockImplementation(function (this: FieldIndex, token: string) {
      looked.push(token);
      return lookup.call(this, token);
    });
    expect(d.warmedUp).toBe(false);
    d.warmSearch();
    await waitFor(() => d.warmedUp, { what: 'the warm-up to finish' });
    expect(looked.some((t) => t.length === 1)).toBe(true);
    expect(looked.some((t) => t.length === 2)).toBe(true);
    expect(looked.some((t) => t.length >= 3)).toBe(true);

    // The user types a query the warm-up typed: its tokens are looked up again, not answered from memory.
    looked.length = 0;
    const r = d.rank('checkout');
    expect(looked).toContain('checkout');
    expect(ranked(r)).toEqual(ranked(rankWiki(d.getSnapshot().searchable, 'checkout')));
    expect(r.total).toBeGreaterThan(0);
    d.dispose();
  });

  it('stops when the domain is disposed', async ({ emptyProject: p }) => {
    const d = wiki(p);
    d.warmSearch();
    d.dispose();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(d.warmedUp).toBe(false);
  });
});
