/**
 * A list whose files were not read is not empty: with `.omc` a symlink loop (or a directory a pane reads from
 * refused), every pane says what it does not know, in one wording (ui/not-known.ts), instead of "No sessions yet",
 * "No runs yet", "none: no active OMC mode" and the like, which would claim an empty tree nobody could look at.
 * Once the root is a directory again, the empty states are the pane's own again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { NO_CLAUDE_DIR, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';
import { OmcStore } from '../../src/store/store.js';
import type { MountedApp } from '../helpers/mount-app.js';

/** What each pane claims of an empty tree (the words that must not stand when nothing could be read). */
const EMPTY_CLAIMS =
  /No sessions yet|No team runs yet|No runs yet|none: no active OMC mode|No notepad\.md yet|No project memory yet|No wiki yet|Priority 0\//;

/** Each pane's screen in footer order (Tab steps through them). */
async function everyPane(a: MountedApp, count = 7): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(a.text());
    await a.step('\t');
  }
  return out;
}

/** The footer: the frame's last line with text (its keys). */
const footer = (a: MountedApp): string =>
  a
    .lines()
    .filter((l) => l.trim() !== '')
    .at(-1) ?? '';

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

function storeAt(root: string, dir: string, watch: 'auto' | 'none'): OmcStore {
  const store = new OmcStore({
    root,
    watch,
    projectDir: dir,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
  });
  // Read whole before the first frame: every pane's empty state is then its answer, not "still reading".
  store.start();
  return store;
}

describe('empty states when .omc cannot be read', () => {
  for (const shape of ['ln -s .omc .omc', 'a → b → a'] as const) {
    it(`.omc a symlink loop (${shape}): every pane says it is not known, none that it is empty`, async ({
      tempDir,
      mount,
    }) => {
      const dir = tempDir('omc-top-not-known-');
      const root = path.join(dir, '.omc');
      if (shape === 'ln -s .omc .omc') fs.symlinkSync('.omc', root);
      else {
        fs.symlinkSync('b', root);
        fs.symlinkSync('.omc', path.join(dir, 'b'));
      }
      const a = mount(storeAt(root, dir, 'auto'), { columns: 140, rows: 20 });
      await a.ready;
      await a.waitForText('is a symlink loop; waiting for it to be a directory');
      await a.waitForText('Sessions not known: .omc cannot be read (it is a symlink loop).');
      const [sessions, teams, history, cost, notepad, memory, wiki] = await everyPane(a);
      expect(teams).toContain('Teams not known: .omc cannot be read (it is a symlink loop).');
      expect(history).toContain('Runs not known: .omc cannot be read (it is a symlink loop).');
      expect(cost).toContain('Loops not known: .omc cannot be read (it is a symlink loop).');
      expect(notepad).toContain('.omc cannot be read (it is a symlink loop)');
      expect(notepad).toContain('Entries not known: notepad.md cannot be read');
      expect(notepad).toContain('Priority ?/');
      expect(memory).toContain('Project memory not known: .omc cannot be read (it is a symlink loop).');
      expect(wiki).toContain('Pages not known: .omc cannot be read (it is a symlink loop).');
      for (const screen of [sessions, teams, history, cost, notepad, memory, wiki])
        expect(screen).not.toMatch(EMPTY_CLAIMS);
      // Nor does the header count a tree nobody could look at.
      expect(sessions).toContain('sessions not known');
      expect(sessions).not.toMatch(/\d+ sess\b/);

      // A directory there now: it was read and is empty, and the panes say so in their own words again.
      fs.unlinkSync(root);
      fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
      await a.waitForText('No sessions yet');
      await a.waitForText('0 sess · 0 running');
      expect(a.text()).not.toContain('not known');
    });
  }

  it('.omc a symlink loop: no write key is offered; pressed, each says why before anything is typed', async ({
    tempDir,
    mount,
  }) => {
    const dir = tempDir('omc-top-not-known-keys-');
    const root = path.join(dir, '.omc');
    fs.symlinkSync('.omc', root);
    const a = mount(storeAt(root, dir, 'auto'), { columns: 140, rows: 20 });
    await a.ready;
    await a.waitForText('Sessions not known');
    const refusal = '.omc cannot be read (it is a symlink loop): nothing will be written';
    // Sessions: no loop to cancel or pause.
    expect(footer(a)).not.toMatch(/\bc cancel\b|\bp pause\b/);
    await a.step('c');
    await a.waitForText(`cancel: ${refusal}`);
    await a.step('n');
    expect(footer(a)).toMatch(/Notepad/);
    expect(footer(a)).not.toMatch(/\bedit\b|\bclear\b/);
    await a.step('2');
    expect(footer(a)).not.toMatch(/\badd\b|\bdel\b|\bprune\b/);
    await a.step('a');
    await a.waitForText(refusal);
    expect(a.text()).not.toContain('New Working Memory entry');
    await a.step('m');
    expect(footer(a)).toMatch(/Memory.*preview/);
    expect(footer(a)).not.toMatch(/\badd\b|\bremove\b|\bpriority\b/);
    await a.step('a');
    await a.waitForText(refusal);
    expect(fs.lstatSync(root).isSymbolicLink()).toBe(true);
  });

  it('a save when .omc turned into a symlink loop under the open editor says so, in words, and keeps the draft', async ({
    tempDir,
    mount,
  }) => {
    const dir = tempDir('omc-top-not-known-save-');
    const root = path.join(dir, '.omc');
    fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
    const a = mount(storeAt(root, dir, 'auto'), { columns: 140, rows: 20 });
    await a.ready;
    await a.waitForText('No sessions yet');
    await a.step('n');
    await a.step('a');
    await a.waitForText('New Working Memory entry');
    await a.press(...'kept through a loop');
    await a.waitForText('kept through a loop');
    fs.renameSync(root, path.join(dir, 'was-omc'));
    fs.symlinkSync('.omc', root);
    await a.press('\u0013');
    // The cause as the reads word it, with the path quoted: not Node's "too many symbolic links encountered".
    await a.waitForText(/save: symlink loop on the way \(ELOOP: .*\.omc'?\) \(your draft is kept\)/);
    expect(a.text()).not.toContain('too many symbolic links');
    expect(a.text()).toContain('kept through a loop');
    expect(fs.lstatSync(root).isSymbolicLink()).toBe(true);
  });

  it('a directory a pane lists, refused: Sessions, Teams, History and Wiki say which one was not read', async ({
    emptyProject: p,
    mount,
  }) => {
    for (const d of ['state/team', 'sessions', 'wiki']) fs.mkdirSync(path.join(p.root, d), { recursive: true });
    const refused = new Set(['state/sessions', 'state/team', 'sessions', 'wiki'].map((d) => path.join(p.root, d)));
    fault = refuseReads('EACCES', (abs) => refused.has(abs));
    const a = mount(storeAt(p.root, p.dir, 'none'), { columns: 160, rows: 24 });
    await a.ready;
    await a.waitForText('Sessions not known: state/sessions cannot be read (the ⚠ line says why).');
    const [sessions, teams, history, , , , wiki] = await everyPane(a);
    expect(teams).toContain('Teams not known: state/team cannot be read (the ⚠ line says why).');
    expect(history).toContain('Runs not known: sessions cannot be read (the ⚠ line says why).');
    expect(wiki).toMatch(/Pages not known: wiki cannot be read \(.*permission denied/);
    for (const screen of [sessions, teams, history, wiki]) expect(screen).not.toMatch(EMPTY_CLAIMS);
  });
});

describe('the header while .omc is away with sessions listed', () => {
  it('.omc replaced by a file, then removed: the header counts the rows shown as unreadable, the same both ways', async ({
    emptyProject: p,
    mount,
  }) => {
    const ids = [1, 2, 3, 4, 5, 6].map((i) => `c0ffee0${i}-0000-4000-8000-00000000000${i}`);
    for (const sessionId of ids) writeLiveRalph(p, { sessionId, iteration: 2 });
    const a = mount(storeAt(p.root, p.dir, 'auto'), { columns: 140, rows: 20 });
    await a.ready;
    await a.waitForText('6 sess · 6 running');
    // A file where .omc was: the six rows are still listed, each unreadable; the header says so, not "not known".
    fs.renameSync(p.root, `${p.root}.away`);
    fs.writeFileSync(p.root, 'not a directory\n');
    await a.waitForText('now, not a directory');
    const asFile = await a.waitForText('6 sess · 0 running · 6 unreadable');
    expect(asFile).not.toContain('sessions not known');
    // Removed: the same words.
    fs.unlinkSync(p.root);
    await a.waitForText(/\.omc is gone/);
    expect(await a.waitForText('6 sess · 0 running · 6 unreadable')).not.toContain('sessions not known');
  });
});

describe('a list read in part', () => {
  it('History with runs from sessions/ and the ledger refused says it is incomplete, on screen and in --json', async ({
    emptyProject: p,
    mount,
  }) => {
    const sid = 'a1b2c3d4-0000-4000-8000-00000000e11d';
    fs.mkdirSync(path.join(p.root, 'sessions'), { recursive: true });
    fs.writeFileSync(
      path.join(p.root, 'sessions', `${sid}.json`),
      JSON.stringify({
        session_id: sid,
        ended_at: '2026-12-01T10:00:00.000Z',
        reason: 'prompt_input_exit',
        modes_used: ['ralph'],
      }),
    );
    const ledger = path.join(p.root, 'state', 'runs', 'ledger.jsonl');
    fs.mkdirSync(path.dirname(ledger), { recursive: true });
    fs.writeFileSync(ledger, '');
    fault = refuseReads('EACCES', (abs) => abs === ledger);
    const store = storeAt(p.root, p.dir, 'none');
    const a = mount(store, { columns: 120, rows: 20 });
    await a.ready;
    await a.step('R');
    const screen = await a.waitForText('a1b2c3d4');
    expect(screen).toContain('Runs incomplete: state/runs/ledger.jsonl cannot be read (the ⚠ line says why).');
    // The line sits above the list's titles: the run is still drawn, the titles still there.
    expect(screen).toContain('OUTCOME');
    expect(store.runs.report().runs_not_read).toBe('state/runs/ledger.jsonl');

    // Read again (its directory changed): whole, and nothing says otherwise.
    fault.restore();
    fault = null;
    store.runs.scan();
    await waitFor(() => !a.text().includes('Runs incomplete'));
    expect(a.text()).toContain('a1b2c3d4');
    expect(store.runs.report().runs_not_read).toBeNull();
  });
});
