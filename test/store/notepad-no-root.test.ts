/**
 * A note added before OMC made any `.omc` (a new project, the Notepad pane's `a`): OMC's own notepad writer makes
 * the root first (5.5.0's initNotepad: a `mkdir -p`), so omc-top's save does the same, and OMC's reader then finds
 * the entry. A root that cannot be made is refused with words that do not claim it once was there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import { describeWriteError } from '../../src/io/safe-fs/index.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { loadOmcNotepad, OMC_NOTEPAD_MODULE, type OmcNotepad } from '../helpers/omc-notepad.js';
import { scaled } from '../helpers/time-scale.js';

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

  it("the .omc omc-top's save makes has the mode OMC's own writer gives it under the same umask", async () => {
    const mode = (p: TempProject) => fs.statSync(p.root).mode & 0o777;
    // The usual umask, and one that keeps group write (a shared checkout): neither gives a 0700 directory.
    for (const umask of [0o022, 0o002]) {
      // OMC 5.5.0's addManualEntry (initNotepad's mkdir of the root) in its own process, under this umask.
      const theirs = bareProject();
      const script = `process.umask(${umask}); const m = await import(${JSON.stringify(pathToFileURL(OMC_NOTEPAD_MODULE).href)}); process.exit(m.addManualEntry(process.argv[1], 'theirs') ? 0 : 1);`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, theirs.dir], {
        encoding: 'utf8',
        timeout: scaled(30_000),
      });
      expect(r.status, r.stderr).toBe(0);
      // omc-top's save of the first note, in this process under the same umask.
      const ours = bareProject();
      const before = process.umask(umask);
      let out;
      try {
        out = await new NotepadDomain({ root: ours.root }).save({ kind: 'add', section: 'manual', body: 'ours' }, null);
      } finally {
        process.umask(before);
      }
      expect(out.kind).toBe('saved');
      expect(mode(ours).toString(8), `umask ${umask.toString(8)}`).toBe(mode(theirs).toString(8));
      expect(mode(ours)).toBe(0o777 & ~umask);
    }
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
