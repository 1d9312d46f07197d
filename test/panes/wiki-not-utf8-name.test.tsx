/**
 * Two wiki page files whose names are not UTF-8 and decode alike (`caf\xe9-notes.md`, `caf\xea-notes.md`: Node gives
 * both as `caf�-notes.md`) are two pages, each named by its bytes (`\xNN`) as a session directory so named is: in
 * the list, the page view, the `!` list and the store's problems and `wiki` report (`--json`'s). Each opens, and
 * its own text is read by its bytes; OMC's readers skip it (the decoded name opens nothing), so it is not searched.
 * They were one row named with U+FFFD, and its page showed nothing of the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { READERS_CAPTURED_AT, waitFor } from '../helpers/fixtures.js';
import { terminalViolations } from '../helpers/hostile-bytes.js';
import { omcWikiQuery } from '../helpers/omc-knowledge.js';

const named = (wiki: string, byte: number) =>
  Buffer.concat([Buffer.from(`${wiki}/caf`), Buffer.from([byte]), Buffer.from('-notes.md')]);

describe('a wiki page whose file name is not UTF-8', () => {
  it('is named by its bytes everywhere, one page per file, and opens with its own text', async ({ app, project }) => {
    const wiki = path.join(project.root, 'wiki');
    fs.writeFileSync(named(wiki, 0xe9), 'the first page, written by hand\n');
    fs.writeFileSync(named(wiki, 0xea), 'the second page, another file\n');
    const a = await app({ pane: 'wiki', clock: () => READERS_CAPTURED_AT, columns: 120, rows: 40 });
    await a.waitForText('caf\\xea-notes');
    expect(a.text()).toContain('caf\\xe9-notes');
    expect(a.text()).not.toContain('\ufffd');

    const report = a.store.wiki.report().wiki as { not_searchable: Array<{ file: string }> };
    expect(report.not_searchable.map((p) => p.file)).toEqual(
      expect.arrayContaining(['caf\\xe9-notes.md', 'caf\\xea-notes.md']),
    );
    const paths = a.store.problems.getSnapshot().map((p) => p.path);
    expect(paths).toContain('wiki/caf\\xe9-notes.md');
    expect(paths).toContain('wiki/caf\\xea-notes.md');
    expect(paths.some((p) => p.includes('\ufffd'))).toBe(false);

    // Opened, each page shows its own file's text, read by its bytes.
    const marked = () => a.lines().find((l) => l.startsWith('▸')) ?? '';
    for (let i = 0; i < 20 && !marked().includes('caf\\xea-notes'); i++) await a.press('j');
    expect(marked()).toContain('caf\\xea-notes');
    await a.press(KEY.enter);
    const page = await a.waitForText('the second page, another file');
    expect(page).toContain('file: wiki/caf\\xea-notes.md');
    expect(page).toContain('OMC cannot open it by the name it lists');
    expect(page).not.toContain('the first page');
    expect(page).not.toContain('\ufffd');

    await a.press(KEY.esc, '!');
    await waitFor(() => a.text().includes('wiki/caf\\xe9-notes.md') || null, { what: 'the ! list' });
    expect(a.text()).not.toContain('\ufffd');
    expect(terminalViolations(a.raw())).toEqual([]);
  });

  it("sorts by its shown name among the other pages, and OMC's search ranks the rest as before", async ({
    app,
    project,
  }) => {
    const wiki = path.join(project.root, 'wiki');
    fs.writeFileSync(named(wiki, 0xe9), 'a page by hand, about checkout\n');
    const a = await app({ pane: 'wiki', clock: () => READERS_CAPTURED_AT, columns: 120, rows: 40 });
    await a.waitForText('caf\\xe9-notes');
    // The list: by shown name, as a user reads the names (the other names are plain: their code-unit order).
    const shown = a.store.wiki.getSnapshot().pages.map((p) => p.shownName);
    expect(shown).toEqual([...shown].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    expect(shown.indexOf('caf\\xe9-notes.md')).toBeGreaterThan(0);
    // On screen (rows by title; this page's is its shown name): after API Client Conventions (api-client-conventions.md),
    // before Cart State Management (cart-state-management.md); it was the first row.
    const rows = a.lines();
    const at = (name: string) => rows.findIndex((l) => l.includes(name));
    expect(at('API Client Conventions')).toBeGreaterThanOrEqual(0);
    expect(at('API Client Conventions')).toBeLessThan(at('caf\\xe9-notes'));
    expect(at('caf\\xe9-notes')).toBeLessThan(at('Cart State Management'));
    // OMC's own ranking (its queryWiki over the same files: it cannot open the page, so never ranks it) is omc-top's.
    const { queryWiki } = await omcWikiQuery();
    const omc = (queryWiki(project.dir, 'checkout') as any[]).map((m) => [m.page.filename, m.score]);
    const ours = a.store.wiki.search('checkout').hits.map((h) => [h.page.filename, h.score]);
    expect(ours).toEqual(omc);
  });

  it('comes and goes live: the watcher names it decoded, and the listing finds it by its bytes', async ({
    app,
    project,
  }) => {
    const wiki = path.join(project.root, 'wiki');
    const a = await app({ pane: 'wiki', clock: () => READERS_CAPTURED_AT, columns: 120, rows: 40, watch: 'auto' });
    await a.waitForText('SCORE');
    fs.writeFileSync(named(wiki, 0xeb), 'written while watched\n');
    await a.waitForText('caf\\xeb-notes');
    fs.renameSync(named(wiki, 0xeb), path.join(wiki, 'cafe-notes.md'));
    await waitFor(() => (a.text().includes('caf\\xeb-notes') ? null : true), { what: 'the renamed page gone' });
    await a.waitForText('cafe-notes');
  });
});
