/**
 * A hang-up does not drop the user's typing, in a real pseudo-terminal running the shipped bundle: the editor
 * holds a draft, the process gets SIGHUP (a tmux pane killed, an ssh drop), the draft is in omc-top's state
 * directory; the next start offers it in the same editor, r puts it back on the item it was typed for, and the
 * usual save lands it on disk there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { KEY } from '../helpers/keys.js';
import type { TerminalHarness } from '../helpers/pty.js';
import { KEPT_OFFER } from '../helpers/kept-drafts.js';

/** The kept draft files for `target` (one per hang-up) in the state directory (its name carries a digest of the root). */
function keptFiles(stateHome: string, target: string): string[] {
  const dir = path.join(stateHome, 'omc-top');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => new RegExp(`^draft-[0-9a-f]{16}-${target}\\.[0-9]+-[0-9a-f]{8}\\.json$`).test(n))
    .map((n) => path.join(dir, n));
}

async function hangUp(h: TerminalHarness): Promise<void> {
  h.kill('SIGHUP');
  expect(await h.waitForExit()).toBe(129);
}

describe('a hang-up keeps the draft of an open editor', () => {
  it('notepad: an entry being edited is kept at SIGHUP, offered again, restored on that entry and saved there', async ({
    project: p,
    pty,
    tempDir,
  }) => {
    const stateHome = tempDir('omc-top-kept-state-');
    const env = { XDG_STATE_HOME: stateHome };
    const notepad = path.join(p.root, 'notepad.md');
    const before = fs.readFileSync(notepad, 'utf8');

    const h = pty({ cwd: p.dir, cols: 100, rows: 30, env });
    await h.waitForText('ralph 3/10');
    h.write('n');
    await h.waitForText(/Working Memory · 5 entries/);
    // i edits the selected (newest) Working Memory entry; the cursor starts at the end of its text.
    h.write('i');
    await h.waitForText('Working Memory entry 2026-11-30 18:10');
    h.write(' Unblocked after the hang-up.');
    await h.waitForText('Unblocked after the hang-up.');
    await hangUp(h);

    const [file, ...more] = keptFiles(stateHome, 'notepad-working');
    expect(more).toEqual([]);
    const kept = JSON.parse(fs.readFileSync(file as string, 'utf8'));
    expect(kept.fields.text).toBe(
      'autopilot execution: 4/9 tasks done. Blocked on payment sandbox credentials for the e2e step. Unblocked after the hang-up.',
    );
    expect(kept.item).toMatchObject({ kind: 'edit', section: 'working', target: { stamp: '2026-11-30 18:10' } });
    expect(kept.why).toBe('hangup');
    // The line after the screen is restored names the file.
    await waitFor(() => h.output.includes(`was kept in ${file}`), { what: 'the exit line naming the draft file' });
    expect(fs.readFileSync(notepad, 'utf8')).toBe(before);

    // Next start: the same section's editor offers it (here opened as a new entry: the draft knows its entry).
    const again = pty({ cwd: p.dir, cols: 100, rows: 30, env });
    await again.waitForText('ralph 3/10');
    again.write('n');
    await again.waitForText(/Working Memory · 5 entries/);
    again.write('a');
    await again.waitForText(KEPT_OFFER);
    again.write(KEY.ctrl('r'));
    await again.waitForText('the kept draft is back in the field');
    await again.waitForText('Unblocked after the hang-up.');
    expect(again.text()).toContain('Working Memory entry 2026-11-30 18:10');
    expect(fs.existsSync(file as string)).toBe(false);
    expect(fs.readFileSync(notepad, 'utf8')).toBe(before);
    again.write(KEY.ctrl('s'));
    await again.waitForText('saved Working Memory entry 2026-11-30 18:10');
    // The entry itself changed; no entry was added.
    expect(fs.readFileSync(notepad, 'utf8')).toBe(
      before.replace('for the e2e step.\n', 'for the e2e step. Unblocked after the hang-up.\n'),
    );
    again.write('q');
    expect(await again.waitForExit()).toBe(0);
  });

  it('project memory: a new directive is kept at SIGHUP, offered again, restored and added', async ({
    project: p,
    pty,
    tempDir,
  }) => {
    const stateHome = tempDir('omc-top-kept-state-');
    const env = { XDG_STATE_HOME: stateHome };
    const memory = path.join(p.root, 'project-memory.json');
    const directives = () =>
      JSON.parse(fs.readFileSync(memory, 'utf8')).userDirectives as Array<{
        directive: string;
        context: string;
        priority: string;
      }>;
    const count = directives().length;

    const h = pty({ cwd: p.dir, cols: 100, rows: 30, env });
    await h.waitForText('ralph 3/10');
    h.write('m');
    await h.waitForText('PRIORITY');
    h.write('a');
    await h.waitForText('Add a directive');
    h.write('Keep drafts across hang-ups');
    await h.waitForText('27/500');
    h.write(KEY.tab);
    h.write('sweep 5');
    await h.waitForText('sweep 5');
    await hangUp(h);

    const [file] = keptFiles(stateHome, 'memory-directive');
    const kept = JSON.parse(fs.readFileSync(file as string, 'utf8'));
    expect(kept.fields).toEqual({ directive: 'Keep drafts across hang-ups', context: 'sweep 5' });
    expect(kept.item).toMatchObject({ mode: 'add', field: 'context', priority: 'normal' });
    expect(directives()).toHaveLength(count);

    const again = pty({ cwd: p.dir, cols: 100, rows: 30, env });
    await again.waitForText('ralph 3/10');
    again.write('m');
    await again.waitForText('PRIORITY');
    again.write('a');
    await again.waitForText(KEPT_OFFER);
    again.write(KEY.ctrl('r'));
    await again.waitForText('the kept draft is back in the field');
    await again.waitForText('Keep drafts across hang-ups');
    expect(again.text()).toContain('sweep 5');
    again.write(KEY.enter);
    await again.waitForText('directive added');
    expect(directives().at(-1)).toMatchObject({
      directive: 'Keep drafts across hang-ups',
      context: 'sweep 5',
      priority: 'normal',
    });
    expect(fs.existsSync(file as string)).toBe(false);
  });
});
