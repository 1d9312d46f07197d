/**
 * A directory where OMC's `<file>.lock` belongs (notepad.md.lock, project-memory.json.lock): nobody's lock, and no
 * takeover removes it (OMC and omc-top both take a stale lock over by unlinking it, which a directory refuses), so
 * OMC's own writers of that file fail until it is removed. omc-top says so once, as a problem line and the save
 * block (--json: editable false), and a save is refused at once with what to remove, never promised a takeover.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { acquireFileLock } from '../../src/io/file-lock.js';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import { MemoryDomain } from '../../src/store/memory/domain.js';
import { FIXTURE_TREE } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { scaled } from '../helpers/time-scale.js';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

/** A directory at `<rel>.lock`, two minutes old (well past OMC's 30 s staleness). */
function lockDirectory(root: string, rel: string): string {
  const lock = path.join(root, `${rel}.lock`);
  fs.mkdirSync(lock);
  const at = new Date(Date.now() - 120_000);
  fs.utimesSync(lock, at, at);
  return lock;
}

const IN_THE_WAY = /is a directory where OMC's lock file belongs: no takeover can remove it.*\(rmdir \S*\.lock\)/;

describe('a directory as the lock', () => {
  it('notepad.md.lock: a problem line and no editing (--json editable false); a save is refused at once, no takeover promised', async ({
    emptyProject: p,
  }) => {
    fs.copyFileSync(path.join(FIXTURE_TREE, 'notepad.md'), path.join(p.root, 'notepad.md'));
    const lock = lockDirectory(p.root, 'notepad.md');
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    expect(d.problems()).toEqual([
      expect.objectContaining({
        path: 'notepad.md.lock',
        severity: 'error',
        message: expect.stringMatching(IN_THE_WAY),
      }),
    ]);
    expect((d.report().notepad as { editable: boolean }).editable).toBe(false);
    expect(d.getSnapshot().editBlock).toMatch(/^notepad\.md\.lock is a directory where OMC's lock file belongs/);
    // The lock itself, asked with OMC's 5 s wait: refused without waiting, saying what to remove.
    const t0 = Date.now();
    const refusal = await acquireFileLock(p.root, 'notepad.md').then(
      () => null,
      (e: Error) => e.message,
    );
    expect(Date.now() - t0).toBeLessThan(scaled(2_000));
    expect(refusal).toMatch(IN_THE_WAY);
    expect(refusal).not.toMatch(/taken over (on the next try|in)/);
    expect(fs.statSync(lock).isDirectory()).toBe(true);
    // What the line says of OMC is so: its own writer cannot add an entry while the directory is there.
    const before = fs.readFileSync(path.join(p.root, 'notepad.md'), 'utf8');
    omc.addWorkingMemoryEntry(p.dir, 'OMC with a directory as the lock');
    expect(fs.readFileSync(path.join(p.root, 'notepad.md'), 'utf8')).toBe(before);
    // Removed: the line goes, editing is back.
    fs.rmdirSync(lock);
    d.scan();
    expect(d.problems()).toEqual([]);
    expect((d.report().notepad as { editable: boolean }).editable).toBe(true);
  });

  it('project-memory.json.lock: a problem line and the save block name the directory', ({ emptyProject: p }) => {
    fs.copyFileSync(path.join(FIXTURE_TREE, 'project-memory.json'), path.join(p.root, 'project-memory.json'));
    const d = new MemoryDomain({ root: p.root });
    d.scan();
    expect(d.getSnapshot().writeBlock).toBeNull();
    const lock = lockDirectory(p.root, 'project-memory.json');
    d.scan();
    expect(d.problems()).toContainEqual(
      expect.objectContaining({
        path: 'project-memory.json.lock',
        severity: 'error',
        message: expect.stringMatching(IN_THE_WAY),
      }),
    );
    expect(d.getSnapshot().writeBlock).toMatch(
      /^project-memory\.json\.lock is a directory where OMC's lock file belongs/,
    );
    fs.rmdirSync(lock);
    d.scan();
    expect(d.getSnapshot().writeBlock).toBeNull();
    expect(d.problems().some((x) => x.path === 'project-memory.json.lock')).toBe(false);
  });
});
