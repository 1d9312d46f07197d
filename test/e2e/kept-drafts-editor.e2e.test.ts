/**
 * A hang-up while $EDITOR is open does not take the text typed there with it, in a real pseudo-terminal running
 * the shipped bundle: the editor has written its file, the terminal's process group gets SIGHUP (what the kernel
 * sends when a tmux pane is killed or an ssh connection drops), and the text it left is kept in omc-top's state
 * directory. The next A offers it before $EDITOR opens; r puts it in the in-app editor, and it is saved once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { KEY } from '../helpers/keys.js';
import { KEPT_OFFER } from '../helpers/kept-drafts.js';

const TYPED = 'Typed in the editor before the hang-up';

/** An $EDITOR that writes its text, says so on the screen, then waits for a line it never gets. */
function editorScript(dir: string, marker: string): string {
  const file = path.join(dir, 'editor.sh');
  fs.writeFileSync(
    file,
    `#!/bin/sh\n: > '${marker}'\nprintf '%s\\n' '${TYPED}' > "$1"\necho "EDITOR HOLDS THE TEXT"\nread -r _\n`,
    { mode: 0o755 },
  );
  return file;
}

const keptFiles = (stateHome: string) => {
  const dir = path.join(stateHome, 'omc-top');
  return fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((n) => /^draft-[0-9a-f]{16}-notepad-working\.[0-9]+-[0-9a-f]{8}\.json$/.test(n))
    : [];
};

describe('a hang-up while $EDITOR is open', () => {
  it('keeps the text the editor wrote; the next A offers it, Ctrl-R restores it, Ctrl-S adds it once', async ({
    project: p,
    pty,
    tempDir,
  }) => {
    const stateHome = tempDir('omc-top-kept-state-');
    const bin = tempDir('omc-top-editor-');
    const marker = path.join(bin, 'editor-ran');
    const env = { XDG_STATE_HOME: stateHome, EDITOR: editorScript(bin, marker), VISUAL: undefined };
    const notepad = path.join(p.root, 'notepad.md');
    const before = fs.readFileSync(notepad, 'utf8');

    const h = pty({ cwd: p.dir, cols: 100, rows: 30, env });
    await h.waitForText('ralph 3/10');
    h.write('n');
    await h.waitForText(/Working Memory · 5 entries/);
    h.write('A');
    await h.waitForText('EDITOR HOLDS THE TEXT');
    // The whole foreground process group, as a closed terminal does: the editor and omc-top alike.
    process.kill(-h.pty.pid, 'SIGHUP');
    expect(await h.waitForExit()).toBe(129);

    const [name, ...more] = keptFiles(stateHome);
    expect(more).toEqual([]);
    expect(name).toBeDefined();
    const file = path.join(stateHome, 'omc-top', name as string);
    const kept = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(kept.fields.text).toBe(TYPED);
    expect(kept.item).toMatchObject({ kind: 'add', section: 'working' });
    expect(kept.why).toBe('hangup');
    expect(fs.readFileSync(notepad, 'utf8')).toBe(before);

    // Next start: A offers the draft in the in-app editor before $EDITOR is run.
    fs.rmSync(marker);
    const again = pty({ cwd: p.dir, cols: 100, rows: 30, env });
    await again.waitForText('ralph 3/10');
    again.write('n');
    await again.waitForText(/Working Memory · 5 entries/);
    again.write('A');
    await again.waitForText(KEPT_OFFER);
    expect(fs.existsSync(marker)).toBe(false);
    again.write(KEY.ctrl('r'));
    await again.waitForText('the kept draft is back in the field');
    await again.waitForText(TYPED);
    expect(fs.existsSync(file)).toBe(false);
    again.write(KEY.ctrl('s'));
    await again.waitForText('added Working Memory entry');
    await waitFor(() => fs.readFileSync(notepad, 'utf8').includes(TYPED), { what: 'the entry in notepad.md' });
    expect(fs.readFileSync(notepad, 'utf8').split(TYPED)).toHaveLength(2);
    again.write('q');
    expect(await again.waitForExit()).toBe(0);
  });

  it('a start of the monitor deletes the drafts kept more than 30 days ago, of any root, and leaves the rest (--readonly none)', async ({
    project: p,
    pty,
    tempDir,
  }) => {
    const stateHome = tempDir('omc-top-kept-state-');
    const dir = path.join(stateHome, 'omc-top');
    fs.mkdirSync(dir, { recursive: true });
    const write = (name: string, ageDays: number) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, '{}\n');
      const at = new Date(Date.now() - ageDays * 24 * 60 * 60 * 1000);
      fs.utimesSync(file, at, at);
      return file;
    };
    const old = write('draft-0123456789abcdef-note-fedcba9876543210.json', 31);
    const recent = write('draft-0123456789abcdef-memory-directive.json', 29);
    // --readonly writes nothing, omc-top's own state included: the old draft is still there after it.
    const ro = pty({ cwd: p.dir, cols: 100, rows: 30, env: { XDG_STATE_HOME: stateHome }, args: ['--readonly'] });
    await ro.waitForText('ralph 3/10');
    ro.write('q');
    expect(await ro.waitForExit()).toBe(0);
    expect(fs.existsSync(old)).toBe(true);
    const h = pty({ cwd: p.dir, cols: 100, rows: 30, env: { XDG_STATE_HOME: stateHome } });
    await h.waitForText('ralph 3/10');
    await waitFor(() => !fs.existsSync(old), { what: 'the old draft deleted' });
    expect(fs.existsSync(recent)).toBe(true);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
