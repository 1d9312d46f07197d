/**
 * Drafts kept when omc-top is ended without asking, on the one rig: what the exit keeps from each pane's field
 * (and that q keeps nothing), the offer when the same editor opens again, nothing typed over it, r, d, and a
 * garbled file named and never applied. The real-terminal proof (SIGHUP to the bundle) is
 * test/e2e/kept-drafts.e2e.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { keepOnExit } from '../../src/kit/kept-drafts.js';
import { PANES } from '../../src/panes/registry.js';
import type { MountedApp } from '../helpers/mount-app.js';
import { KEPT_OFFER } from '../helpers/kept-drafts.js';
import { KEY } from '../helpers/keys.js';

async function typeNewWorkingEntry(app: MountedApp, text: string): Promise<void> {
  await app.waitForText('ralph 3/10');
  app.send('n');
  await app.waitForText(/Working Memory · 5 entries/);
  app.send('a');
  await app.waitForText('New Working Memory entry');
  app.send(text);
  await app.waitForText(text);
}

const keptFile = (app: MountedApp, target: string) =>
  path.join(app.store.drafts.dir, app.store.drafts.fileName(target));

describe('a draft kept when omc-top is ended without asking', () => {
  it('a hang-up keeps the notepad draft; the next a offers it, holds typing, and r puts it back unsaved', async ({
    app: mount,
    project,
  }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await typeNewWorkingEntry(first, 'typed before the hang-up');
    // q / Ctrl-C asked and were answered: nothing is kept for them.
    expect(keepOnExit(0, PANES, [{ drafts: first.store.drafts, ui: first.ui }])).toEqual([]);
    const file = keptFile(first, 'notepad-working');
    expect(fs.existsSync(file)).toBe(false);
    const kept = keepOnExit(129, PANES, [{ drafts: first.store.drafts, ui: first.ui }]);
    expect(kept).toEqual([
      {
        label: 'Working Memory draft (notepad)',
        offeredAt: 'opening an editor on Working Memory (n, then a or i)',
        file,
        cut: false,
      },
    ]);
    const onDisk = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(onDisk).toMatchObject({
      target: 'notepad-working',
      why: 'hangup',
      fields: { text: 'typed before the hang-up' },
    });
    expect(onDisk.item).toMatchObject({ kind: 'add', section: 'working', initial: '' });

    const next = await mount({ columns: 110, rows: 30 });
    await next.waitForText('ralph 3/10');
    next.send('n');
    await next.waitForText(/Working Memory · 5 entries/);
    next.send('a');
    await next.waitForText(KEPT_OFFER);
    // Nothing is typed over the undecided draft.
    next.send('x');
    await next.waitForText('a kept draft is offered: r restores it, d discards it');
    expect(next.text()).not.toMatch(/^x/m);
    next.send('r');
    await next.waitForText('typed before the hang-up');
    expect(next.text()).not.toMatch(KEPT_OFFER);
    expect(fs.existsSync(file)).toBe(false);
    // Unsaved until the usual key: the notepad has not changed yet.
    expect(fs.readFileSync(path.join(project.root, 'notepad.md'), 'utf8')).not.toContain('typed before the hang-up');
    next.send(KEY.ctrl('s'));
    await next.waitForText('added Working Memory entry');
    expect(fs.readFileSync(path.join(project.root, 'notepad.md'), 'utf8')).toContain('typed before the hang-up');
  });

  it('d discards the kept draft; Esc leaves it for the next time', async ({ app: mount }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await typeNewWorkingEntry(first, 'to be discarded');
    keepOnExit(143, PANES, [{ drafts: first.store.drafts, ui: first.ui }]);
    const file = keptFile(first, 'notepad-working');
    const next = await mount({ columns: 110, rows: 30 });
    await next.waitForText('ralph 3/10');
    next.send('n');
    await next.waitForText(/Working Memory · 5 entries/);
    next.send('a');
    await next.waitForText(/was kept when omc-top was stopped \(SIGTERM\): r restores · d discards/);
    next.send('\u001b');
    await next.waitForText(/Working Memory · 5 entries/);
    expect(fs.existsSync(file)).toBe(true);
    next.send('a');
    await next.waitForText('r restores · d discards');
    next.send('d');
    await next.waitForText('the kept draft was discarded');
    expect(fs.existsSync(file)).toBe(false);
    // The editor is a fresh one now: typing goes in.
    next.send('fresh');
    await next.waitForText(/^fresh/m);
  });

  it('a garbled draft file is named with what is wrong, never applied; d deletes it', async ({ app: mount }) => {
    const a = await mount({ columns: 110, rows: 30 });
    const file = keptFile(a, 'notepad-working');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version": 1, "target": "notepad-working", "fields": {"text": "half');
    await a.waitForText('ralph 3/10');
    a.send('n');
    await a.waitForText(/Working Memory · 5 entries/);
    a.send('a');
    // The line wraps at the file's long path: the two halves.
    await a.waitForText(/The draft kept in \S*draft-[0-9a-f]{16}-notepad-working\.json\s+cannot be used \(is not JSON/);
    a.send('r');
    await a.waitForText('that kept draft cannot be used: d deletes it');
    expect(a.text()).not.toContain('half');
    a.send('d');
    await waitFor(() => !fs.existsSync(file), { what: 'the garbled file deleted' });
  });

  it('a new directive comes back in the form, both fields', async ({ app: mount }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await first.waitForText('ralph 3/10');
    first.send('m');
    await first.waitForText('PRIORITY');
    first.send('a');
    await first.waitForText('Add a directive');
    first.send('Never lose typing');
    first.send('\t');
    first.send('from sweep 5');
    await first.waitForText('from sweep 5');
    const [kept] = keepOnExit(129, PANES, [{ drafts: first.store.drafts, ui: first.ui }]);
    expect(kept).toMatchObject({ label: 'new directive (project memory)' });
    const next = await mount({ columns: 110, rows: 30 });
    await next.waitForText('ralph 3/10');
    next.send('m');
    await next.waitForText('PRIORITY');
    next.send('a');
    await next.waitForText(KEPT_OFFER);
    next.send('r');
    await next.waitForText('Never lose typing');
    expect(next.text()).toContain('from sweep 5');
    next.send('\r');
    await next.waitForText('directive added');
  });

  it("a note to a session's Claude is offered back in that session's note field only", async ({ app: mount }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await first.waitForText('ralph 3/10');
    first.send('\r');
    await first.waitForText('fields:');
    first.send('m');
    await first.waitForText('(Enter sends, Esc cancels)');
    first.send('stop after this story');
    await first.waitForText('stop after this story');
    const [kept] = keepOnExit(129, PANES, [{ drafts: first.store.drafts, ui: first.ui }]);
    expect(kept).toMatchObject({ offeredAt: "m in that session's detail" });
    const other = await mount({ columns: 110, rows: 30 });
    await other.waitForText('ralph 3/10');
    // Another session's note field: not offered there.
    other.send('j');
    other.send('\r');
    await other.waitForText('fields:');
    other.send('m');
    await other.waitForText('(Enter sends, Esc cancels)');
    expect(other.text()).not.toMatch(KEPT_OFFER);
    other.send('x');
    await other.waitForText(/note: x/);
    const same = await mount({ columns: 110, rows: 30 });
    await same.waitForText('ralph 3/10');
    same.send('\r');
    await same.waitForText('fields:');
    same.send('m');
    await same.waitForText(KEPT_OFFER);
    same.send('r');
    await same.waitForText('note: stop after this story');
  });
});
