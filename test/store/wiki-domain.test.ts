/**
 * The wiki index as a live domain: bad pages become listed pages with a
 * specific badge while everything else keeps working; changes are applied one
 * file at a time (search and lint never read the disk); new, changed and
 * deleted pages show up without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { WikiDomain } from '../../src/store/wiki/domain.js';
import { serializeWikiPage, type WikiFrontmatter } from '../../src/store/wiki/frontmatter.js';
import { waitFor, type TempProject } from '../helpers/fixtures.js';
import { frontmatter } from '../helpers/wiki-frontmatter.js';

const fm = (title: string, over: Partial<WikiFrontmatter> = {}) =>
  frontmatter({
    title,
    tags: ['t'],
    created: '2026-11-01T00:00:00.000Z',
    updated: '2026-11-01T00:00:00.000Z',
    ...over,
  });

afterEach(async () => {
  vi.restoreAllMocks();
});

function wikiProject(p: TempProject): {
  p: TempProject;
  wiki: string;
  page(name: string, title: string, body?: string, over?: Partial<WikiFrontmatter>): string;
} {
  const wiki = path.join(p.root, 'wiki');
  fs.mkdirSync(wiki, { recursive: true });
  return {
    p,
    wiki,
    page(name, title, body = `\n# ${title}\n\nbody of ${title}\n`, over = {}) {
      const file = path.join(wiki, name);
      fs.writeFileSync(file, serializeWikiPage(fm(title, over), body));
      return file;
    },
  };
}

describe('bad pages are listed with a problem badge and the rest keeps working', () => {
  it('malformed frontmatter, CRLF, huge, non-UTF-8, NUL bytes, a directory, a symlink out of the root, hostile names', ({
    emptyProject: p,
  }) => {
    const w = wikiProject(p);
    w.page('good.md', 'Good page', '\n# Good page\n\nsearchable needle\n');
    fs.writeFileSync(path.join(w.wiki, 'no-fm.md'), '# no frontmatter\nneedle\n');
    fs.writeFileSync(path.join(w.wiki, 'unclosed.md'), '---\ntitle: "x"\nneedle\n');
    fs.writeFileSync(
      path.join(w.wiki, 'crlf.md'),
      serializeWikiPage(fm('Windows page'), '\n# W\n\nneedle here\n').replace(/\n/g, '\r\n'),
    );
    fs.writeFileSync(
      path.join(w.wiki, 'huge.md'),
      serializeWikiPage(fm('Huge page'), '\n# Huge\n\n' + 'lorem ipsum '.repeat(120_000) + 'needle\n'),
    );
    fs.writeFileSync(
      path.join(w.wiki, 'latin1.md'),
      Buffer.concat([
        Buffer.from(serializeWikiPage(fm('Latin'), '\nCaf')),
        Buffer.from([0xe9]),
        Buffer.from(' needle\n'),
      ]),
    );
    fs.writeFileSync(path.join(w.wiki, 'binary.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02]));
    fs.mkdirSync(path.join(w.wiki, 'folder.md'));
    const outside = path.join(w.p.dir, 'outside.md');
    fs.writeFileSync(outside, serializeWikiPage(fm('Secret'), '\nneedle\n'));
    fs.symlinkSync(outside, path.join(w.wiki, 'escape.md'));
    fs.writeFileSync(path.join(w.wiki, 'v1..2.md'), serializeWikiPage(fm('Dots'), '\nneedle\n'));
    fs.writeFileSync(
      path.join(w.wiki, 'evil-\u001b[31mred.md'),
      serializeWikiPage(fm('Evil \u001b]0;pwned\u0007title \u009b2J'), '\nneedle \u001b[2J\n'),
    );
    // Not pages: OMC's reserved files and temp files of atomic writes.
    fs.writeFileSync(path.join(w.wiki, 'index.md'), '# Wiki Index\nneedle');
    fs.writeFileSync(path.join(w.wiki, 'log.md'), '# Wiki Log\nneedle');
    fs.writeFileSync(path.join(w.wiki, '.x.md.tmp.1234'), 'partial');

    const d = new WikiDomain({ root: w.p.root });
    d.scan();
    const snap = d.getSnapshot();
    const issue = (name: string) =>
      snap.byName
        .get(name)
        ?.issues.map((i) => `${i.kind}: ${i.message}`)
        .join(' | ') ?? 'not listed';

    expect(snap.pages.map((x) => x.filename)).toEqual(
      [
        'binary.md',
        'crlf.md',
        'escape.md',
        'evil-\u001b[31mred.md',
        'folder.md',
        'good.md',
        'huge.md',
        'latin1.md',
        'no-fm.md',
        'unclosed.md',
        'v1..2.md',
      ].sort(),
    );
    expect(issue('no-fm.md')).toMatch(/unparseable: no frontmatter.*must start with a "---" line/);
    expect(issue('unclosed.md')).toMatch(/never closed/);
    expect(issue('crlf.md')).toMatch(/crlf: CRLF line endings/);
    expect(issue('huge.md')).toMatch(/huge: huge page \(1\.\d MB\)/);
    expect(issue('latin1.md')).toMatch(/invalid-utf8: .*not valid UTF-8/);
    // NUL bytes are read as OMC reads them (characters): this one's frontmatter never closes.
    expect(issue('binary.md')).toMatch(/unparseable: frontmatter is never closed/);
    expect(issue('folder.md')).toMatch(/is a directory where a page file was expected/);
    expect(issue('escape.md')).toMatch(/symlink points outside the \.omc root/);
    expect(issue('v1..2.md')).toMatch(/OMC refuses to read it/);

    // The rest keeps working: search finds the readable pages, including CRLF, huge and non-UTF-8 ones.
    const hits = d.search('needle', { limit: Infinity }).hits.map((h) => h.page.filename);
    expect(hits.sort()).toEqual(['crlf.md', 'evil-\u001b[31mred.md', 'good.md', 'huge.md', 'latin1.md']);

    // Problem lines name the file and the reason; info-level badges (CRLF) are not problems.
    const problems = d.problems();
    expect(problems.map((x) => x.path)).toEqual(
      expect.arrayContaining([
        'wiki/binary.md',
        'wiki/no-fm.md',
        'wiki/escape.md',
        'wiki/folder.md',
        'wiki/huge.md',
        'wiki/latin1.md',
      ]),
    );
    expect(problems.some((x) => x.path === 'wiki/crlf.md')).toBe(false);

    // No control byte from a file survives into what a view shows.
    const evil = snap.byName.get('evil-\u001b[31mred.md')!;
    expect(evil.display.title).toBe('Evil title ');
    for (const x of problems) expect(x.path + x.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('a file where the wiki directory belongs is one specific problem, not a crash', ({ emptyProject: p }) => {
    fs.writeFileSync(path.join(p.root, 'wiki'), 'oops');
    const d = new WikiDomain({ root: p.root });
    d.scan();
    expect(d.getSnapshot().dir).toBe('error');
    expect(d.problems()).toEqual([
      { path: 'wiki', message: 'is a file where the wiki directory was expected', severity: 'error' },
    ]);
  });
});

describe('incremental index', () => {
  it('search and lint read nothing; a change event reads one file; an unchanged rescan reads none', ({
    emptyProject: p,
  }) => {
    const w = wikiProject(p);
    for (let i = 0; i < 50; i++)
      w.page(`p${String(i).padStart(2, '0')}.md`, `Page ${i}`, `\n# Page ${i}\n\ntoken${i % 5} shared words\n`);
    const d = new WikiDomain({ root: w.p.root });
    d.scan();
    const opens = vi.spyOn(fs, 'openSync');
    for (const q of ['t', 'to', 'tok', 'toke', 'token', 'token3', 'shared words', '']) d.search(q, { limit: Infinity });
    d.lint();
    expect(opens).not.toHaveBeenCalled();

    w.page('p07.md', 'Page seven renamed', '\n# Page 7\n\nbrand new text\n');
    d.refresh([{ type: 'change', rel: 'wiki/p07.md' }], 'leading');
    expect(opens).toHaveBeenCalledTimes(1);
    expect(d.search('brand new').hits.map((h) => h.page.filename)).toEqual(['p07.md']);

    opens.mockClear();
    d.scan();
    expect(opens).not.toHaveBeenCalled();
  });

  it('keeps the last good page when a leading-edge read catches a half-written file; the trailing read decides', ({
    emptyProject: p,
  }) => {
    const w = wikiProject(p);
    const file = w.page('a.md', 'Alpha', '\n# Alpha\n\nfirst version\n');
    const d = new WikiDomain({ root: w.p.root });
    d.scan();
    fs.writeFileSync(file, '---\ntitle: "Alp');
    d.refresh([{ type: 'change', rel: 'wiki/a.md' }], 'leading');
    expect(d.getSnapshot().byName.get('a.md')?.searchable).toBe(true);
    expect(d.problems()).toEqual([]);
    d.refresh([{ type: 'change', rel: 'wiki/a.md' }], 'trailing');
    expect(d.getSnapshot().byName.get('a.md')?.issues[0]?.kind).toBe('unparseable');
    expect(d.problems()[0]?.path).toBe('wiki/a.md');
  });
});

describe('live: pages appear, change and disappear without a restart', () => {
  it('through the real watcher', async ({ emptyProject: p, newStore }) => {
    const w = wikiProject(p);
    w.page('first.md', 'First');
    const store = newStore({ root: w.p.root });
    const d = store.wiki;
    store.start();
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    expect(d.getSnapshot().pages.map((x) => x.filename)).toEqual(['first.md']);

    w.page('second.md', 'Second', '\n# Second\n\nfresh zebra\n');
    await waitFor(() => d.search('zebra').hits.length === 1, { what: 'new page searchable' });

    w.page('second.md', 'Second', '\n# Second\n\nnow a giraffe\n');
    await waitFor(() => d.search('giraffe').hits.length === 1 && d.search('zebra').hits.length === 0, {
      what: 'changed page re-indexed',
    });

    fs.rmSync(path.join(w.wiki, 'first.md'));
    await waitFor(() => !d.getSnapshot().byName.has('first.md'), { what: 'deleted page gone' });

    fs.rmSync(w.wiki, { recursive: true });
    await waitFor(() => d.getSnapshot().pages.length === 0, { what: 'wiki dir removed' });
    fs.mkdirSync(w.wiki);
    w.page('again.md', 'Again');
    await waitFor(() => d.getSnapshot().byName.has('again.md'), { what: 'wiki dir recreated' });
  });
});
