/**
 * `omc-top --json` carries the wiki and project-memory views too: the same
 * facts the panes show (OMC's directive ranking and injection, OMC's lint
 * counts, the pages OMC cannot read).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { omcWikiLint } from '../helpers/omc-knowledge.js';
import { BIN } from '../helpers/pty.js';

describe('omc-top --json: wiki and project_memory', () => {
  it('reports directives in OMC ranking with their fate, and the wiki index with lint counts and unreadable pages', async ({
    project: p,
  }) => {
    fs.writeFileSync(path.join(p.root, 'wiki', 'broken.md'), 'no frontmatter');
    const r = spawnSync(process.execPath, [BIN, '--json', '--root', p.root], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);

    const pm = doc.project_memory;
    expect(pm.omc_loads).toBe(true);
    expect(pm.directives.map((d: any) => [d.rank, d.shown_as])).toEqual([
      [1, 'critical'],
      [2, 'critical'],
      [3, 'critical'],
      [4, 'critical'],
      [5, 'note'],
      [6, 'note'],
      [7, 'note'],
    ]);
    expect(pm.directives.filter((d: any) => d.session_start === 'injected')).toHaveLength(3);
    expect(pm.session_start_injection).toMatch(
      /^<project-memory-context>\n\n\[PROJECT MEMORY\]\n\n\[Project Environment\]/,
    );

    expect(doc.wiki).toMatchObject({ dir: 'ok', pages: 11, searchable: 10 });
    expect(doc.wiki.not_searchable).toEqual([
      { file: 'broken.md', reason: expect.stringMatching(/^no frontmatter/), omc_reads: false },
    ]);
    // OMC's own wiki_lint on the same pages now (its "stale" is 30 days from a page's `updated`, so the counts of
    // the fixture's pages change with the wall clock: the text recorded at capture time is not the referee).
    const omc = (await omcWikiLint()).lintWiki(p.dir);
    expect({
      orphan: doc.wiki.lint.orphan,
      stale: doc.wiki.lint.stale,
      'broken-ref': doc.wiki.lint['broken-ref'],
    }).toEqual({ orphan: omc.stats.orphanCount, stale: omc.stats.staleCount, 'broken-ref': omc.stats.brokenRefCount });
    expect(doc.problems.some((x: any) => x.path === 'wiki/broken.md')).toBe(true);
  });
});
