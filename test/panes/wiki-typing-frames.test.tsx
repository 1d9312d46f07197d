/**
 * Typing fast into the wiki search box never draws results for a query other
 * than the one in the box: for every frame Ink wrote while the keys arrived
 * (bursts of keys in one read, keys between renders, backspaces), the match
 * count and the rows drawn are exactly OMC's ranking (searchWiki, checked
 * against OMC's queryWiki by the interop tests) of the query that frame shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeWikiPage } from '../../src/store/wiki/frontmatter.js';
import { searchWiki } from '../../src/store/wiki/search.js';
import { makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { mountApp, type MountedApp } from '../helpers/mount-app.js';
import { frontmatter } from '../helpers/wiki-frontmatter.js';
import { KEY } from '../helpers/keys.js';

let p: TempProject | null = null;
let app: MountedApp | null = null;
afterEach(async () => {
  await app?.unmount();
  app = null;
  p?.cleanup();
  p = null;
});

const fm = (title: string, tags: string[]) => frontmatter({ title, tags });

const WORDS = ['checkout', 'cache', 'check', 'flow', 'flaky', 'token', 'auth', 'release', 'payments', 'chart'];

/** 240 pages whose titles, tags and bodies share prefixes, so each key changes the ranking. */
function writePages(wiki: string): void {
  fs.mkdirSync(wiki, { recursive: true });
  for (let i = 0; i < 240; i++) {
    const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length] as string;
    const title = `T${String(i).padStart(3, '0')} ${w(0)} ${i % 3 === 0 ? w(1) : ''}`.trim();
    const body = `\n# ${title}\n\n${Array.from({ length: 1 + (i % 9) }, (_, k) => `${w(k)} ${w(k + 2)}`).join(' and ')}.\n`;
    fs.writeFileSync(path.join(wiki, `p${String(i).padStart(3, '0')}.md`), serializeWikiPage(fm(title, [w(4)]), body));
  }
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

interface Drawn {
  query: string;
  count: number;
  rows: Array<[number, string]>;
}

/**
 * What one list frame shows: the query in the search box (between "/ " and the cursor, which is an
 * inverse space: typed queries here never end in a space, so the query is the text up to the padding),
 * the match count, and each row's score and title.
 */
function parseFrame(raw: string): Drawn | null {
  const lines = raw.replace(ANSI, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^\/ (.*?) +(\d+) match(?:es)? in \d+ pages$/.exec((lines[i] as string).trimEnd());
    if (!m) continue;
    const rows: Array<[number, string]> = [];
    for (const l of lines.slice(i + 3)) {
      const r = /^[▸ ] +(\d+) {2}\S+\s+(T\d{3}(?: [a-z]+)*)/.exec(l);
      if (r) rows.push([Number(r[1]), r[2] as string]);
    }
    return { query: (m[1] as string).trimEnd(), count: Number(m[2]), rows };
  }
  return null;
}

describe('wiki search box: no frame shows results of another query', () => {
  it('every frame drawn while typing fast ranks the query it shows', async () => {
    p = makeProject();
    writePages(path.join(p.root, 'wiki'));
    app = await mountApp({ root: p.root, pane: 'wiki', columns: 100, rows: 30 });
    const a = app;
    await a.waitForText('240 of 240 pages');
    await a.press('/');
    const mark = a.frames().length;
    // Bursts (several reads before the app turns), single keys between renders, backspaces. No state of
    // the box ends in a space (the parse below could not tell it from the padding).
    a.send(...'che');
    await a.press('c', 'k');
    a.send('o', 'u', 't', ' f');
    await a.press('l', KEY.backspace, 'a', 'k', KEY.backspace, KEY.backspace);
    a.send('l', 'o', 'w');
    await a.press(' t');
    a.send('o', 'k');
    await a.press(KEY.backspace);
    a.send('k', 'e', 'n');
    await a.waitForText(/\/ checkout flow token +\d+ match/);
    const pages = a.store.wiki.getSnapshot().searchable;
    const seen = new Set<string>();
    let checked = 0;
    for (const raw of a.frames().slice(mark)) {
      const drawn = parseFrame(raw);
      if (!drawn || drawn.query === '') continue;
      const expected = searchWiki(pages, drawn.query, { limit: Infinity });
      const want = expected.hits.slice(0, drawn.rows.length).map((h) => [h.score, h.page.display.title]);
      expect({ query: drawn.query, count: drawn.count, rows: drawn.rows }).toEqual({
        query: drawn.query,
        count: expected.total,
        rows: want,
      });
      // A frame shows as many rows as fit (11 at 100x30), or every match when fewer.
      expect(drawn.rows.length).toBe(Math.min(expected.total, 11));
      seen.add(drawn.query);
      checked += 1;
    }
    // The walk really drew many different queries, not just the last one.
    expect(seen.size, [...seen].join(' | ')).toBeGreaterThanOrEqual(6);
    expect(checked).toBeGreaterThanOrEqual(seen.size);
    await waitFor(() => a.store.wiki.getSnapshot().searchable.length === 240);
  });

  it('a keystroke in the search box draws one frame, not a second one to pin the selection', async () => {
    p = makeProject();
    writePages(path.join(p.root, 'wiki'));
    app = await mountApp({ root: p.root, pane: 'wiki', columns: 100, rows: 30 });
    const a = app;
    await a.waitForText('240 of 240 pages');
    await a.press('/');
    await a.waitForText(/^\/ +240 of 240 pages/m);
    const before = a.frames().length;
    const keys = [...'checkout', KEY.backspace, 't'];
    await a.step(...keys);
    await a.waitForText(/\/ checkout +\d+ match/);
    const drawn = a.frames().length - before;
    // One frame per key; a clock tick may add one or two. Pinning in an effect after each frame drew two.
    expect(drawn).toBeGreaterThanOrEqual(keys.length);
    expect(drawn).toBeLessThanOrEqual(keys.length + 3);
    // The selection is still pinned to the row shown first: Enter opens it.
    const first = parseFrame(a.raw())?.rows[0]?.[1];
    expect(first).toBeTruthy();
    await a.press(KEY.enter);
    await a.waitForText(new RegExp(`^${first}`, 'm'));
  });
});
