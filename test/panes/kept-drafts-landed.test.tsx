/**
 * Kept drafts are never doubled nor stranded: a hang-up in the middle of a save keeps the draft, and when the save
 * went through the next offer says where the text is and only deletes the draft (Ctrl-R restoring an added entry would
 * add it twice); `e` and `A` offer a kept draft before $EDITOR opens, as `a` and `i` do; a note kept for a session
 * that went away is named in its detail when the session is back. The real-terminal $EDITOR hang-up is
 * test/e2e/kept-drafts-editor.e2e.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { NO_CLAUDE_DIR, waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { keepOnExit } from '../../src/kit/kept-drafts.js';
import { PANES } from '../../src/panes/registry.js';
import { OmcStore } from '../../src/store/store.js';
import { mountStore, type MountedApp } from '../helpers/mount-app.js';
import { scaled } from '../helpers/time-scale.js';
import { KEPT_OFFER, KEPT_LANDED } from '../helpers/kept-drafts.js';
import { KEY } from '../helpers/keys.js';

/** The notepad editor's text as the pane holds it (the message line may quote the $EDITOR command). */
const draftText = (app: MountedApp) =>
  (app.ui.getSnapshot().panes.notepad as { editor: { buf: { text: string } } | null }).editor?.buf.text;
const hangUp = (app: MountedApp) => keepOnExit(129, PANES, [{ drafts: app.store.drafts, ui: app.ui }]);
/** The oldest file kept for `target` (one per hang-up), or the name a draft kept now would get. */
const keptFile = (app: MountedApp, target: string) =>
  path.join(
    app.store.drafts.dir,
    app.store.drafts.keptNames(target)[0] ?? app.store.drafts.fileName(target, Date.now()),
  );

/**
 * The app over a store whose saves wait `lockMs` for OMC's lock: long, so a test holding the lock catches a save in
 * flight; short, so a held lock refuses the save at once.
 */
async function mountPatient(root: string, lockMs = scaled(60_000)): Promise<MountedApp> {
  const wait = { lockTimeoutMs: lockMs };
  const store = new OmcStore({
    root,
    watch: 'none',
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    notepad: wait,
    memory: wait,
  });
  store.start();
  const app = mountStore(store, { columns: 110, rows: 30 });
  await app.ready;
  return app;
}

/** Holds OMC's lock on `file` as a live writer (this process): a save waits until `release`. */
function holdLock(root: string, file: string): { release(): void } {
  const lock = path.join(root, `${file}.lock`);
  fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, timestamp: Date.now() }), { mode: 0o600 });
  return { release: () => fs.rmSync(lock, { force: true }) };
}

/** The screen's text with each run of blanks (a wrapped line's break among them) as one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const count = (text: string, part: string) => text.split(part).length - 1;

describe('a kept draft whose save went through', () => {
  it('notepad: the next editor says the entry is there and r does not add it again', async ({
    project,
    app: mount,
  }) => {
    const notepad = path.join(project.root, 'notepad.md');
    const first = await mountPatient(project.root);
    try {
      await first.waitForText('ralph 3/10');
      first.send('n');
      await first.waitForText(/Working Memory · 5 entries/);
      first.send('a');
      await first.waitForText('New Working Memory entry');
      first.send('saved just before the hang-up');
      await first.waitForText('saved just before the hang-up');
      const lock = holdLock(project.root, 'notepad.md');
      first.send(KEY.ctrl('s'));
      await first.waitForText('saving…');
      // The hang-up lands while the save waits for the lock: the draft is kept, and then the save goes through.
      expect(hangUp(first)).toHaveLength(1);
      lock.release();
      await first.waitForText('added Working Memory entry');
    } finally {
      await first.unmount();
    }
    expect(count(fs.readFileSync(notepad, 'utf8'), 'saved just before the hang-up')).toBe(1);
    const file = keptFile(first, 'notepad-working');
    expect(fs.existsSync(file)).toBe(true);

    const next = await mount({ columns: 110, rows: 30 });
    await next.waitForText('ralph 3/10');
    next.send('n');
    await next.waitForText(/Working Memory · 6 entries/);
    next.send('a');
    await next.waitForText(KEPT_LANDED);
    expect(flat(next.text())).toMatch(
      /its text is saved already: it is in notepad\.md as the Working Memory entry \d{4}-\d\d-\d\d \d\d:\d\d\. Ctrl-X deletes the draft/,
    );
    next.send(KEY.ctrl('r'));
    await next.waitForText("that kept draft's text is saved already");
    // Nothing is saved over the offer either.
    next.send(KEY.ctrl('s'));
    await next.waitForText('a kept draft is offered above the field: Ctrl-R restores it');
    next.send(KEY.ctrl('x'));
    await next.waitForText('Discard the kept draft?');
    next.send('y');
    await waitFor(() => !fs.existsSync(file), { what: 'the kept draft deleted' });
    expect(count(fs.readFileSync(notepad, 'utf8'), 'saved just before the hang-up')).toBe(1);
  });

  it('project memory: a new directive already added is said so, never added twice', async ({ project, app: mount }) => {
    const memory = path.join(project.root, 'project-memory.json');
    const directives = () => JSON.parse(fs.readFileSync(memory, 'utf8')).userDirectives as Array<{ directive: string }>;
    const first = await mountPatient(project.root);
    try {
      await first.waitForText('ralph 3/10');
      first.send('m');
      await first.waitForText('PRIORITY');
      first.send('a');
      await first.waitForText('Add a directive');
      first.send('Saved as the terminal closed');
      await first.waitForText('Saved as the terminal closed');
      const lock = holdLock(project.root, 'project-memory.json');
      first.send('\r');
      // The save cannot finish while the lock is held, so the form still holds the draft: the hang-up keeps it.
      expect(hangUp(first)).toHaveLength(1);
      lock.release();
      await first.waitForText('directive added');
    } finally {
      await first.unmount();
    }
    const mine = () => directives().filter((d) => d.directive === 'Saved as the terminal closed');
    expect(mine()).toHaveLength(1);

    const next = await mount({ columns: 110, rows: 30 });
    await next.waitForText('ralph 3/10');
    next.send('m');
    await next.waitForText('PRIORITY');
    next.send('a');
    await next.waitForText(KEPT_LANDED);
    expect(flat(next.text())).toMatch(
      /its text is saved already: it is directive \d+ in project-memory\.json\. Ctrl-X deletes/,
    );
    next.send(KEY.ctrl('r'));
    await next.waitForText("that kept draft's text is saved already");
    expect(mine()).toHaveLength(1);
  });
});

describe('a kept draft that says what an older item says', () => {
  const OLD_ENTRY = 'autopilot execution: 4/9 tasks done. Blocked on payment sandbox credentials for the e2e step.';

  it("notepad: a new entry typed with an older entry's words is offered back, not called saved", async ({
    project,
    app: mount,
  }) => {
    const notepad = path.join(project.root, 'notepad.md');
    const first = await mount({ columns: 110, rows: 30 });
    await first.waitForText('ralph 3/10');
    first.send('n');
    await first.waitForText(/Working Memory · 5 entries/);
    first.send('a');
    await first.waitForText('New Working Memory entry');
    first.send(OLD_ENTRY);
    await first.waitForText('Blocked on payment sandbox credentials for the e2e step.');
    // Kept a week after the entry with the same words was written: that entry is not this draft's save.
    expect(hangUp(first)).toHaveLength(1);
    await first.unmount();

    const next = await mount({ columns: 110, rows: 30 });
    await next.waitForText('ralph 3/10');
    next.send('n');
    await next.waitForText(/Working Memory · 5 entries/);
    next.send('a');
    await next.waitForText(KEPT_OFFER);
    expect(flat(next.text())).not.toContain('saved already');
    next.send(KEY.ctrl('r'));
    await next.waitForText('the kept draft is back in the field');
    expect(draftText(next)).toBe(OLD_ENTRY);
    next.send(KEY.ctrl('s'));
    await next.waitForText('added Working Memory entry');
    expect(count(fs.readFileSync(notepad, 'utf8'), OLD_ENTRY)).toBe(2);
  });
});

describe('$EDITOR keys offer a kept draft first', () => {
  it('e on an entry opens the in-app editor with the offer, and $EDITOR is not run', async ({ app: mount }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await first.waitForText('ralph 3/10');
    first.send('n');
    await first.waitForText(/Working Memory · 5 entries/);
    first.send('i');
    await first.waitForText('Working Memory entry 2026-11-30 18:10');
    first.send(' and more');
    await first.waitForText('and more');
    expect(hangUp(first)).toHaveLength(1);

    // An $EDITOR that would fail loudly if it ran.
    vi.stubEnv('EDITOR', 'exit 3; :');
    try {
      const next = await mount({ columns: 110, rows: 30 });
      await next.waitForText('ralph 3/10');
      next.send('n');
      await next.waitForText(/Working Memory · 5 entries/);
      next.send('e');
      await next.waitForText(KEPT_OFFER);
      await next.waitForText('a kept draft is offered before $EDITOR opens');
      expect(next.text()).not.toContain('exited with status 3');
      next.send(KEY.ctrl('r'));
      await next.waitForText('Blocked on payment sandbox credentials for the e2e step. and more');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('an $EDITOR ended by a signal', () => {
  it('Ctrl-O: the text it had written becomes the draft (kept at a hang-up); a chosen non-zero exit still aborts', async ({
    app: mount,
  }) => {
    const a = await mount({ columns: 110, rows: 30 });
    await a.waitForText('ralph 3/10');
    a.send('n');
    await a.waitForText(/Working Memory · 5 entries/);
    a.send('a');
    await a.waitForText('New Working Memory entry');
    a.send('begun in the app');
    await a.waitForText('begun in the app');
    try {
      // Writes, then exits 1 by choice (vim's :cq): an abort, as for git commit.
      vi.stubEnv('EDITOR', `sh -c 'printf "%s\\n" "aborted text" > "$1"; exit 1' editor`);
      a.send(KEY.ctrl('o'));
      await a.waitForText('exited with status 1');
      expect(draftText(a)).toBe('begun in the app');
      // Writes, then is killed by SIGHUP (as a closed terminal kills it): what it wrote is not lost.
      vi.stubEnv('EDITOR', `exec sh -c 'printf "%s\\n" "written before the signal" > "$1"; kill -HUP $$' editor`);
      a.send(KEY.ctrl('o'));
      await a.waitForText('was ended by SIGHUP');
      expect(draftText(a)).toBe('written before the signal');
    } finally {
      vi.unstubAllEnvs();
    }
    const [kept] = hangUp(a);
    expect(JSON.parse(fs.readFileSync((kept as { file: string }).file, 'utf8')).fields).toEqual({
      text: 'written before the signal',
    });
  });
});

describe('a refused $EDITOR save', () => {
  it('leaves the text in the in-app editor, a hang-up keeps it, and the next A offers it', async ({ project }) => {
    const added = 'written in the editor, refused by the lock';
    vi.stubEnv('EDITOR', `sh -c 'printf "%s\\n" "${added}" > "$1"' editor`);
    const lock = holdLock(project.root, 'notepad.md');
    try {
      const first = await mountPatient(project.root, 50);
      try {
        await first.waitForText('ralph 3/10');
        first.send('n');
        await first.waitForText(/Working Memory · 5 entries/);
        first.send('A');
        await first.waitForText('your draft is kept');
        await first.waitForText(added);
        const [kept] = hangUp(first);
        expect(kept).toMatchObject({ label: 'Working Memory draft (notepad)' });
        expect(JSON.parse(fs.readFileSync((kept as { file: string }).file, 'utf8')).fields).toEqual({ text: added });
      } finally {
        await first.unmount();
      }
      lock.release();
      // An $EDITOR that would fail loudly if it ran: the kept draft is offered instead.
      vi.stubEnv('EDITOR', 'exit 3; :');
      const next = await mountPatient(project.root);
      try {
        await next.waitForText('ralph 3/10');
        next.send('n');
        await next.waitForText(/Working Memory · 5 entries/);
        next.send('A');
        await next.waitForText(KEPT_OFFER);
        expect(next.text()).not.toContain('exited with status 3');
        next.send(KEY.ctrl('r'));
        await next.waitForText(added);
      } finally {
        await next.unmount();
      }
    } finally {
      lock.release();
      vi.unstubAllEnvs();
    }
  });
});

describe('a note kept for a session that went away', () => {
  it("is named in the session's detail when the session is back, and m offers it", async ({ project, app: mount }) => {
    const first = await mount({ columns: 110, rows: 30 });
    await first.waitForText('ralph 3/10');
    first.send('\r');
    await first.waitForText('fields:');
    first.send('m');
    await first.waitForText('(Enter sends, Esc cancels)');
    first.send('stop after this story');
    await first.waitForText('stop after this story');
    const id = (first.ui.getSnapshot().panes.sessions as { note: { id: string } }).note.id;
    expect(hangUp(first)).toHaveLength(1);

    // The session goes (its state directory removed) and comes back (resumed: the same id, its files again).
    const dir = path.join(project.root, 'state', 'sessions', id);
    const away = path.join(project.dir, 'away');
    fs.renameSync(dir, away);
    const next = await mount({ columns: 110, rows: 30, watch: 'poll' });
    const short = id.slice(0, 8);
    await next.waitForText('ralph 3/10');
    expect(next.text()).not.toContain(short);
    fs.renameSync(away, dir);
    await next.waitForText(short, 'the session back');
    // Its row, found by its id.
    next.send('/');
    next.send(short);
    await next.waitForText(`/${short}`);
    next.send('\r');
    await next.waitForText(new RegExp(`▸.*${short}`));
    next.send('\r');
    await next.waitForText('fields:');
    await waitFor(
      () =>
        flat(next.text()).includes(
          "A note to this session's Claude was kept when omc-top was last ended without asking: m offers it back",
        ),
      { what: 'the kept note named in the detail' },
    );
    next.send('m');
    await next.waitForText(KEPT_OFFER);
    next.send(KEY.ctrl('r'));
    await next.waitForText('note: stop after this story');
  });
});
