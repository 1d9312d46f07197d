/** A page's `[[links]]`, found when the page view asks: the same before and after its body is folded. */
import { describe, expect, it } from 'vitest';
import { buildPage } from '../../src/store/wiki/page.js';
import { readOk } from '../helpers/read-ok.js';

const text = (body: string) =>
  `---\ntitle: "Links"\ntags: [auth]\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-02T00:00:00.000Z\nsources: []\nlinks: []\ncategory: reference\nconfidence: medium\nschemaVersion: 1\n---\n${body}`;

describe('wiki page body links', () => {
  const body =
    'See [[Auth Architecture]], [[認証アーキテクチャ]] and [[ Café NAÏVE!! ]] then [[Auth Architecture]] again.';
  const want = ['auth-architecture.md', expect.stringMatching(/^page-[0-9a-f]{8}\.md$/), 'caf-na-ve.md'];

  it('lists each target once, in order, as the file names OMC links to', () => {
    expect(buildPage('links.md', readOk(text(body)), 'now').bodyLinks).toEqual(want);
  });

  it('reads the same links from a folded body (the original text let go)', () => {
    const page = buildPage('links.md', readOk(text(body)), 'now');
    expect(page.foldBody()).toBeGreaterThan(0);
    expect(page.bodyLinks).toEqual(want);
  });

  it('has none on a page OMC cannot parse', () => {
    expect(buildPage('bad.md', readOk('no frontmatter [[Auth]]'), 'now').bodyLinks).toEqual([]);
  });
});
