/**
 * A notepad.md that is a symlink: the contained write path never writes through a link, so a save is refused.
 * The editor is refused when it would open (a, A, i, e), in the words the save's refusal uses, and nothing is
 * offered to type into; the link was opened, a draft typed, and the refusal came only at Ctrl-S (a tester's find).
 * A link out of the root is not even read (its problem line says so), and editing says that instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { READERS_CAPTURED_AT, waitFor } from '../helpers/fixtures.js';
import type { MountedApp } from '../helpers/mount-app.js';

/** The same words as the save's refusal (io/safe-fs/write.ts: "refusing to write notepad.md: it is a symlink"). */
const REFUSED = 'refusing to write notepad.md: it is a symlink';

/** Presses `key` and waits for the message it flashes (each one its own, in the message log). */
async function pressed(a: MountedApp, key: string): Promise<string> {
  const before = a.ui.state.log.length;
  await a.press(key);
  await waitFor(() => a.ui.state.log.length > before || null, { what: `a message after ${key}` });
  return a.ui.state.log.at(-1)!.text;
}

describe('a notepad.md that is a symlink', () => {
  it("inside .omc: a, A, i and e are refused at once with the save's words; no editor opens", async ({
    app,
    project,
  }) => {
    const notepad = path.join(project.root, 'notepad.md');
    const text = fs.readFileSync(notepad, 'utf8');
    fs.renameSync(notepad, path.join(project.root, 'other.md'));
    fs.symlinkSync('other.md', notepad);
    const a = await app({ pane: 'notepad', clock: () => READERS_CAPTURED_AT, columns: 100, rows: 24 });
    // Read through the link as OMC's reader reads it.
    await a.waitForText('2 Working 5 (1 due)');
    for (const key of ['a', 'A', 'i', 'e']) {
      expect(await pressed(a, key), key).toContain(REFUSED);
      expect(a.text(), key).not.toContain('New Working Memory entry');
      expect(a.ui.state.panes.notepad, key).not.toHaveProperty('editor.kind');
    }
    expect(fs.lstatSync(notepad).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(project.root, 'other.md'), 'utf8')).toBe(text);
    // --json says it is not editable.
    expect(a.store.notepad.report()).toMatchObject({ notepad: { editable: false } });
  });

  it('swapped in unseen (no watcher, the same bytes): looked at again when a is pressed', async ({ app, project }) => {
    const notepad = path.join(project.root, 'notepad.md');
    const a = await app({ pane: 'notepad', clock: () => READERS_CAPTURED_AT, columns: 100, rows: 24, watch: 'none' });
    await a.waitForText('2 Working 5 (1 due)');
    fs.renameSync(notepad, path.join(project.root, 'other.md'));
    fs.symlinkSync('other.md', notepad);
    expect(await pressed(a, 'a')).toContain(REFUSED);
    expect(a.ui.state.panes.notepad).not.toHaveProperty('editor.kind');
  });

  it('to a file outside the root: not read, and editing says why at once', async ({ app, project, tempDir }) => {
    const notepad = path.join(project.root, 'notepad.md');
    const outside = path.join(tempDir(), 'notepad.md');
    fs.renameSync(notepad, outside);
    fs.symlinkSync(outside, notepad);
    const a = await app({ pane: 'notepad', clock: () => READERS_CAPTURED_AT, columns: 100, rows: 24 });
    await a.waitForText('symlink points outside');
    await a.press('a');
    await a.waitForText(/notepad\.md cannot be read right now \(symlink points outside/);
    expect(a.text()).not.toContain('New Working Memory entry');
    await a.press(KEY.esc);
  });
});
