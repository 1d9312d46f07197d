/**
 * The demo simulator's memory and wiki modules write what OMC writes: OMC's
 * own loader and wiki readers accept their files, omc-top's domains read them
 * without a problem, and they keep writing as time passes (fake clock).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { MemoryDomain } from '../../src/store/memory/domain.js';
import { WikiDomain } from '../../src/store/wiki/domain.js';
import { omcMemoryStorage, omcWikiLint, omcWikiStorage } from '../helpers/omc-knowledge.js';
// @ts-expect-error plain ESM without types
import { makeContext } from '../../demo/lib.mjs';
// @ts-expect-error plain ESM without types
import * as memorySim from '../../demo/sim/memory.mjs';
// @ts-expect-error plain ESM without types
import * as wikiSim from '../../demo/sim/wiki.mjs';

afterEach(() => {
  vi.useRealTimers();
});

describe('demo simulator: project memory and wiki', () => {
  it('writes OMC-shaped files that OMC reads and omc-top shows without problems, and keeps writing', async ({
    emptyProject: p,
  }) => {
    delete process.env.OMC_STATE_DIR;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ctx = makeContext(p.root, p.dir);
    const stops = [memorySim.start(ctx), wikiSim.start(ctx)];
    const memory = () => JSON.parse(fs.readFileSync(path.join(p.root, 'project-memory.json'), 'utf8'));
    const before = {
      directives: memory().userDirectives.length,
      pages: fs.readdirSync(path.join(p.root, 'wiki')).length,
    };
    vi.advanceTimersByTime(90_000);
    for (const s of stops) s();

    expect(memory().userDirectives.length).toBeGreaterThan(before.directives);
    expect(memory().hotPaths.length).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(p.root, 'wiki')).length).toBeGreaterThan(before.pages);
    expect(fs.readFileSync(path.join(p.root, '.gitignore'), 'utf8')).toBe('wiki/\n');
    // No lock left behind.
    expect(fs.existsSync(path.join(p.root, 'project-memory.json.lock'))).toBe(false);
    expect(fs.existsSync(path.join(p.root, 'wiki', '.wiki-lock.lock'))).toBe(false);

    // OMC reads them.
    const loaded = await (await omcMemoryStorage()).loadProjectMemory(p.dir);
    expect(loaded?.userDirectives.length).toBe(memory().userDirectives.length);
    const storage = await omcWikiStorage();
    const omcPages = storage.readAllPages(p.dir).map((x: { filename: string }) => x.filename);
    expect(omcPages).toContain('page-1f64ce4f.md');
    expect(omcPages).toContain('release-checklist.md');
    const merged = storage.readPage(p.dir, 'release-checklist.md');
    expect(merged.content).toMatch(/## Update \(/);
    expect(merged.frontmatter.tags).toEqual(['release', 'staging']);
    const lint = (await omcWikiLint()).lintWiki(p.dir);
    expect(
      lint.issues.some(
        (i: { type: string; message: string }) =>
          i.type === 'broken-ref' && i.message.includes('error-handling-strategy.md'),
      ),
    ).toBe(true);

    // omc-top shows them, with nothing to complain about.
    const wiki = new WikiDomain({ root: p.root });
    wiki.scan();
    expect(wiki.problems()).toEqual([]);
    expect(
      wiki
        .getSnapshot()
        .searchable.map((x) => x.filename)
        .sort(),
    ).toEqual([...omcPages].sort());
    const mem = new MemoryDomain({ root: p.root });
    mem.scan();
    expect(mem.problems()).toEqual([]);
    expect(mem.getSnapshot().writeBlock).toBeNull();
    // index.md lists every page, as OMC's updateIndexUnsafe would.
    const index = fs.readFileSync(path.join(p.root, 'wiki', 'index.md'), 'utf8');
    expect(index).toMatch(new RegExp(`^> ${omcPages.length} pages \\| Last updated: `, 'm'));
  });
});
