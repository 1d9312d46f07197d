/**
 * Drafts kept when omc-top is ended without asking, on the one rig: what the exit keeps from each pane's field
 * (and that q keeps nothing), the offer when the same editor opens again, nothing typed over it (a word that starts
 * with the offer's old letters neither discards nor restores it), Ctrl-R, Ctrl-X (asked first), and a
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

/** The oldest file kept for `target` (one per hang-up), or the name a draft kept now would get. */
const keptFile = (app: MountedApp, target: string) =>
  path.join(
    app.store.drafts.dir,
    app.store.drafts.keptNames(target)[0] ?? app.store.drafts.fileName(target, Date.now()),
  );

/** `draft-<digest of the root>`: how this app's root's kept files begin. */
const rootPrefix = (app: MountedApp) => app.store.drafts.fileName('x', 0).split('-x.')[0]!;

describe('a draft kept when omc-top is ended without asking', () => {
  it('a hang-up keeps the notepad draft; the next a offers it, holds typing, and Ctrl-R puts it back unsaved', async ({
    app: mount,
    project,
  }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await typeNewWorkingEntry(first, 'typed before the hang-up');
    // q / Ctrl-C asked and were answered: nothing is kept for them.
    expect(keepOnExit(0, PANES, [{ drafts: first.store.drafts, ui: first.ui }])).toEqual([]);
    expect(first.store.drafts.keptNames('notepad-working')).toEqual([]);
    const kept = keepOnExit(129, PANES, [{ drafts: first.store.drafts, ui: first.ui }]);
    const file = keptFile(first, 'notepad-working');
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
    await next.waitForText('a kept draft is offered above the field: Ctrl-R restores it');
    expect(next.text()).not.toMatch(/^x/m);
    next.send(KEY.ctrl('r'));
    await next.waitForText('the kept draft is back in the field');
    expect(next.text()).toContain('typed before the hang-up');
    expect(next.text()).not.toMatch(KEPT_OFFER);
    expect(fs.existsSync(file)).toBe(false);
    // Unsaved until the usual key: the notepad has not changed yet.
    expect(fs.readFileSync(path.join(project.root, 'notepad.md'), 'utf8')).not.toContain('typed before the hang-up');
    next.send(KEY.ctrl('s'));
    await next.waitForText('added Working Memory entry');
    expect(fs.readFileSync(path.join(project.root, 'notepad.md'), 'utf8')).toContain('typed before the hang-up');
  });

  it('two monitors hung up at once keep both drafts; restored in two monitors at once, each draft is saved once', async ({
    app: mount,
    project,
  }) => {
    const a = await mount({ columns: 110, rows: 30 });
    const b = await mount({ columns: 110, rows: 30 });
    await typeNewWorkingEntry(a, 'draft typed in monitor A');
    await typeNewWorkingEntry(b, 'draft typed in monitor B');
    const now = Date.now();
    keepOnExit(129, PANES, [{ drafts: a.store.drafts, ui: a.ui }], now);
    keepOnExit(129, PANES, [{ drafts: b.store.drafts, ui: b.ui }], now);
    // What is on disk: every Working Memory draft file of this root (the state directory is shared by the run).
    const dir = a.store.drafts.dir;
    const texts = () =>
      fs
        .readdirSync(dir)
        .filter((n) => n.startsWith(rootPrefix(a)) && n.includes('-notepad-working'))
        .map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')).fields.text as string)
        .sort();
    expect(texts()).toEqual(['draft typed in monitor A', 'draft typed in monitor B']);

    // Two fresh monitors open the editor at once: both offer the same (oldest) draft; both press Ctrl-R.
    const c = await mount({ columns: 110, rows: 30 });
    const d = await mount({ columns: 110, rows: 30 });
    for (const m of [c, d]) {
      await m.waitForText('ralph 3/10');
      m.send('n');
      await m.waitForText(/Working Memory · 5 entries/);
      m.send('a');
      await m.waitForText(KEPT_OFFER);
    }
    c.send(KEY.ctrl('r'));
    await c.waitForText('the kept draft is back in the field');
    d.send(KEY.ctrl('r'));
    await d.waitForText('that kept draft was taken by another omc-top first');
    expect(d.text()).toContain('1 other kept draft is offered the next time this editor opens');
    c.send(KEY.ctrl('s'));
    await c.waitForText('added Working Memory entry');
    const notepad = () => fs.readFileSync(path.join(project.root, 'notepad.md'), 'utf8');
    const copies = (t: string) => notepad().split(t).length - 1;
    const restored = ['draft typed in monitor A', 'draft typed in monitor B'].find((t) => copies(t) > 0)!;
    expect(copies(restored)).toBe(1);
    // The other draft is still kept, and offered when d's editor opens again.
    const other = texts();
    expect(other).toHaveLength(1);
    expect(other[0]).not.toBe(restored);
    d.send('\u001b');
    await d.waitForText(/Working Memory · \d+ entries/);
    d.send('a');
    await d.waitForText(KEPT_OFFER);
    expect(d.text()).toContain(other[0]!.slice(0, 20));
    d.send(KEY.ctrl('r'));
    await d.waitForText('the kept draft is back in the field');
    d.send(KEY.ctrl('s'));
    await d.waitForText('added Working Memory entry');
    expect([copies('draft typed in monitor A'), copies('draft typed in monitor B')]).toEqual([1, 1]);
    expect(texts()).toEqual([]);
  });

  it('Ctrl-X discards the kept draft once asked; Esc leaves it for the next time', async ({ app: mount }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await typeNewWorkingEntry(first, 'to be discarded');
    keepOnExit(143, PANES, [{ drafts: first.store.drafts, ui: first.ui }]);
    const file = keptFile(first, 'notepad-working');
    const next = await mount({ columns: 110, rows: 30 });
    await next.waitForText('ralph 3/10');
    next.send('n');
    await next.waitForText(/Working Memory · 5 entries/);
    next.send('a');
    await next.waitForText(/was kept when omc-top was stopped \(SIGTERM\): “to be discarded” \(15 characters\)/);
    next.send('\u001b');
    await next.waitForText(/Working Memory · 5 entries/);
    expect(fs.existsSync(file)).toBe(true);
    next.send('a');
    await next.waitForText(/Ctrl-R restores\s+·\s+Ctrl-X discards/);
    next.send(KEY.ctrl('x'));
    await next.waitForText('Discard the kept draft?');
    expect(next.text()).toContain('Its text: “to be discarded” (15 characters)');
    next.send('y');
    await next.waitForText('the kept draft was discarded');
    expect(fs.existsSync(file)).toBe(false);
    // The editor is a fresh one now: typing goes in.
    next.send('fresh');
    await next.waitForText(/^fresh/m);
  });

  it('a garbled draft file is named with what is wrong, never applied; Ctrl-X deletes it', async ({ app: mount }) => {
    const a = await mount({ columns: 110, rows: 30 });
    // Named as an older omc-top named its one file per field (no time in the name): read all the same.
    const file = keptFile(a, 'notepad-working').replace(/\.[0-9]+-[0-9a-f]{8}\.json$/, '.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version": 1, "target": "notepad-working", "fields": {"text": "half');
    await a.waitForText('ralph 3/10');
    a.send('n');
    await a.waitForText(/Working Memory · 5 entries/);
    a.send('a');
    // The line wraps at the file's long path: the two halves.
    await a.waitForText(/The draft kept in \S*draft-[0-9a-f]{16}-notepad-working\.json\s+cannot be used \(is not JSON/);
    a.send(KEY.ctrl('r'));
    await a.waitForText('that kept draft cannot be used: Ctrl-X deletes it');
    expect(a.text()).not.toContain('half');
    a.send(KEY.ctrl('x'));
    await a.waitForText('Discard the kept draft?');
    a.send('y');
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
    next.send(KEY.ctrl('r'));
    await next.waitForText('the kept draft is back in the field');
    expect(next.text()).toContain('Never lose typing');
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
    same.send(KEY.ctrl('r'));
    await same.waitForText('note: stop after this story');
  });

  it('a person who types without reading the offer loses nothing: `deploy` and `refactor` neither discard nor restore it', async ({
    app: mount,
  }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await first.waitForText('ralph 3/10');
    first.send('\r');
    await first.waitForText('fields:');
    first.send('m');
    await first.waitForText('(Enter sends, Esc cancels)');
    first.send('do not touch the db until the migration lands');
    await first.waitForText('do not touch the db');
    keepOnExit(129, PANES, [{ drafts: first.store.drafts, ui: first.ui }]);
    const again = await mount({ columns: 110, rows: 30 });
    await again.waitForText('ralph 3/10');
    again.send('\r');
    await again.waitForText('fields:');
    again.send('m');
    await again.waitForText(KEPT_OFFER);
    const file = path.join(
      again.store.drafts.dir,
      // This root's note (the state directory is the run's, shared with other test files).
      fs
        .readdirSync(again.store.drafts.dir)
        .find(
          (f) => f.startsWith(again.store.drafts.fileName('note-x', 0).split('-note-x.')[0]!) && f.includes('-note-'),
        )!,
    );
    // Sent one key at a time, as typed: each first letter is where the offer's old keys used to act.
    for (const ch of 'deploy staging') again.send(ch);
    for (const ch of 'refactor cart') again.send(ch);
    await again.waitForText('a kept draft is offered above the field: Ctrl-R restores it');
    expect(fs.existsSync(file)).toBe(true);
    expect(again.text()).toMatch(KEPT_OFFER);
    expect(again.text()).not.toMatch(/note: \S/);
    // Ctrl-X asks, with the start of the text; n keeps the offer.
    again.send(KEY.ctrl('x'));
    await again.waitForText('Its text: “do not touch the db until the migration…” (45 characters)');
    again.send('n');
    await again.waitForText('the kept draft stays offered: Ctrl-R restores it');
    expect(fs.existsSync(file)).toBe(true);
    again.send(KEY.ctrl('r'));
    await again.waitForText('note: do not touch the db until the migration lands');
  });
});
