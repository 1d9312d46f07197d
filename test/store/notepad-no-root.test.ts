/**
 * A note added before OMC made any `.omc` (a new project, the Notepad pane's `a`): OMC's own notepad writer makes
 * the root first (5.5.0's initNotepad: a `mkdir -p`), so omc-top's save does the same, and OMC's reader then finds
 * the entry. A root that cannot be made is refused with words that do not claim it once was there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import { describeWriteError } from '../../src/io/safe-fs/index.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';

let omc: OmcNotepad;
let made: TempProject[] = [];
beforeAll(async () => {
  omc = await loadOmcNotepad();
});
afterEach(() => {
  for (const p of made) p.cleanup();
  made = [];
});

/** A git project with no `.omc` yet. */
function bareProject(): TempProject {
  const p = makeProject();
  made.push(p);
  fs.rmSync(p.root, { recursive: true });
  return p;
}

describe('the notepad of a project with no .omc yet', () => {
  it("OMC's own writer makes .omc for the first note (the behaviour followed)", () => {
    const p = bareProject();
    expect(omc.addManualEntry(p.dir, 'theirs')).toBe(true);
    expect(fs.statSync(p.root).isDirectory()).toBe(true);
  });

  it("omc-top's save makes .omc as OMC does, and OMC's reader finds the entry", async () => {
    const p = bareProject();
    const d = new NotepadDomain({ root: p.root });
    const out = await d.save({ kind: 'add', section: 'manual', body: 'hello from the first hour' }, null);
    expect(out.kind).toBe('saved');
    expect(omc.getManualSection(p.dir)).toContain('hello from the first hour');
  });

  it('a root that was there and went (rm -rf .omc) is not made again: the save says it is not there', async () => {
    const p = makeProject();
    made.push(p);
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    fs.rmSync(p.root, { recursive: true });
    // The pane says a failed save in describeWriteError's words (✗ save: …), its draft kept.
    const failed = await d.save({ kind: 'add', section: 'manual', body: 'x' }, null).then(
      () => 'saved',
      (e: unknown) => describeWriteError(e),
    );
    expect(failed).toMatch(/^no such directory \(ENOENT: \S*\.omc\)$/);
    expect(fs.existsSync(p.root)).toBe(false);
  });

  it('a root whose parent is not there either is refused, said as not there (not "gone")', async () => {
    const p = bareProject();
    const root = path.join(p.dir, 'no-such-dir', '.omc');
    const d = new NotepadDomain({ root });
    const out = await d.save({ kind: 'add', section: 'manual', body: 'x' }, null);
    expect(out.kind).toBe('refused');
    const message = (out as { message: string }).message;
    expect(message).toContain('could not be made');
    expect(message).toContain('no such directory');
    expect(message).not.toContain('gone');
    expect(fs.existsSync(root)).toBe(false);
  });
});
