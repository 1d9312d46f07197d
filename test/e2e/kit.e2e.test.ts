/**
 * The pane kit's promises, proven in a real pseudo-terminal running the
 * shipped bundle: a selection is an item, not a row (OMC appends, sessions
 * re-sort), the scroll window is state (G then k moves the cursor, not the
 * list), and long dialogs scroll to their last line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOTEPAD_TEMPLATE, entryStamp, replaceSection } from '../../src/store/notepad/format.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { TerminalHarness } from '../helpers/pty.js';
import { makeLive, sessionId, writeFinishedSessions } from '../helpers/sessions-gen.js';
import { scaled } from '../helpers/time-scale.js';
import { KEY } from '../helpers/keys.js';

const CTRL_S = '\u0013';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
afterEach(() => {
  h?.dispose();
  p?.cleanup();
  h = null;
  p = null;
});

/** Screen row of the selection marker, and that row's text. */
function cursor(t: TerminalHarness): { row: number; text: string } {
  const screen = t.screen();
  const row = screen.findIndex((l) => l.startsWith('▸'));
  return { row, text: screen[row] ?? '' };
}

/** Writes notepad.md as another writer would (temp file + rename): OMC's template, Working Memory = these entries. */
function writeWorking(root: string, entries: Array<[stamp: string, body: string]>): void {
  const working = entries.map(([stamp, body]) => `### ${stamp}\n${body}\n`).join('\n');
  const text = replaceSection(NOTEPAD_TEMPLATE, 'working', working);
  const tmp = path.join(root, `.notepad.md.tmp.${process.pid}`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, path.join(root, 'notepad.md'));
}

/** A stamp five minutes ago: recent enough that OMC's prune keeps it. */
const recentStamp = () => entryStamp(Date.now() - 5 * 60_000);

/** A project whose Working Memory holds these entries, with the monitor open on the Notepad pane. */
async function notepadWith(
  entries: Array<[stamp: string, body: string]>,
): Promise<{ project: TempProject; harness: TerminalHarness }> {
  const project = makeProject();
  writeWorking(project.root, entries);
  const harness = new TerminalHarness({ cwd: project.dir, cols: 80, rows: 24 });
  await harness.waitForText(/^ {2}\S/m, 30_000);
  harness.write('n');
  await harness.waitForText(`Working ${entries.length}`, 30_000);
  return { project, harness };
}

/** Waits until these texts appear on screen top to bottom in this order. */
async function waitForOrder(t: TerminalHarness, texts: string[]): Promise<void> {
  const deadline = Date.now() + scaled(30_000);
  for (;;) {
    await t.settle();
    const screen = t.screen();
    const rows = texts.map((x) => screen.findIndex((l) => l.includes(x)));
    if (rows.every((r, i) => r >= 0 && (i === 0 || r > (rows[i - 1] as number)))) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${texts.join(' / ')}; screen:\n${t.text()}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

async function waitForCursor(t: TerminalHarness, match: RegExp, what: string): Promise<{ row: number; text: string }> {
  // Generous: a loaded 2-core machine can take seconds per frame.
  const deadline = Date.now() + scaled(30_000);
  for (;;) {
    await t.settle();
    const c = cursor(t);
    if (match.test(c.text)) return c;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${t.text()}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

describe('the pane kit in a real terminal', () => {
  it('OMC appends a note while the user’s new entry is selected: i edits the user’s entry', async () => {
    p = makeProject({ withFixture: true });
    h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText('ralph 3/10');
    h.write('n');
    await h.waitForText('Working 5');
    h.write('a');
    await h.waitForText('New Working Memory entry');
    h.write('my own finding about rounding');
    await h.waitForText('my own finding about rounding');
    h.write(CTRL_S);
    await h.waitForText('added Working Memory entry');
    await waitForCursor(h, /my own finding about rounding/, 'the saved entry selected');

    // OMC's own writer appends a note (same minute, so the same stamp as the user's entry).
    expect(omc.addWorkingMemoryEntry(p.dir, 'omc wrote this note')).toBe(true);
    await h.waitForText('omc wrote this note');
    await waitForCursor(h, /my own finding about rounding/, 'the selection still on the user’s entry');

    h.write('i');
    await h.waitForText('Ctrl-S save');
    // The editor's text (the message line above the footer still names the earlier save).
    const editor = h.screen().slice(0, -2).join('\n');
    expect(editor).toMatch(/Working Memory entry \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(editor).toContain('my own finding about rounding');
    expect(editor).not.toContain('omc wrote this note');
  });

  it('entries of one stamp re-ordered and removed, then OMC prunes: the cursor stays on the user’s entry and i edits it', async () => {
    const stamp = recentStamp();
    ({ project: p, harness: h } = await notepadWith([
      ['2026-01-01 00:00', 'an old note OMC will prune'],
      [stamp, 'omc note alpha'],
      [stamp, 'user finding under test'],
      [stamp, 'omc note beta'],
    ]));
    await waitForCursor(h, /omc note beta/, 'the newest entry selected');
    h.write('j');
    await waitForCursor(h, /user finding under test/, 'the user’s entry selected');

    // Another writer puts the user's entry first within its minute: its position among same-stamp entries changes.
    writeWorking(p.root, [
      ['2026-01-01 00:00', 'an old note OMC will prune'],
      [stamp, 'user finding under test'],
      [stamp, 'omc note beta'],
      [stamp, 'omc note alpha'],
    ]);
    await waitForOrder(h, ['omc note alpha', 'omc note beta', 'user finding under test']);
    expect(cursor(h).text).toContain('user finding under test');

    // One entry of that minute is deleted, and OMC's own prune rewrites the section (bodies trimmed, blank-line joined).
    writeWorking(p.root, [
      ['2026-01-01 00:00', 'an old note OMC will prune'],
      [stamp, 'user finding under test'],
      [stamp, 'omc note alpha'],
    ]);
    expect(omc.pruneOldEntries(p.dir)).toEqual({ pruned: 1, remaining: 2 });
    await h.waitForText('Working 2', 30_000);
    expect(cursor(h).text).toContain('user finding under test');

    h.write('i');
    await h.waitForText('Ctrl-S save', 30_000);
    h.write(' (checked)');
    await h.waitForText('user finding under test (checked)', 30_000);
    h.write(CTRL_S);
    await h.waitForText('saved Working Memory entry', 30_000);
    expect(omc.getWorkingMemory(p.dir)).toBe(
      `### ${stamp}\nuser finding under test (checked)\n\n### ${stamp}\nomc note alpha`,
    );
  });

  it('the entry being edited vanishes on disk: the save is refused with a message and nothing is written', async () => {
    const stamp = recentStamp();
    ({ project: p, harness: h } = await notepadWith([
      [stamp, 'user finding that will vanish'],
      [stamp, 'omc note alpha'],
    ]));
    h.write('j');
    await waitForCursor(h, /user finding that will vanish/, 'the user’s entry selected');
    h.write('i');
    await h.waitForText('Ctrl-S save', 30_000);
    h.write(' plus more');
    await h.waitForText('user finding that will vanish plus more', 30_000);

    // Another writer deletes the entry: the other entry of that minute is now the only one with its stamp.
    writeWorking(p.root, [[stamp, 'omc note alpha']]);
    const before = fs.readFileSync(path.join(p.root, 'notepad.md'), 'utf8');
    h.write(CTRL_S);
    await h.waitForText('is no longer in notepad.md', 30_000);
    expect(fs.readFileSync(path.join(p.root, 'notepad.md'), 'utf8')).toBe(before);
    expect(omc.getWorkingMemory(p.dir)).toBe(`### ${stamp}\nomc note alpha`);
    expect(fs.existsSync(path.join(p.root, 'notepad.md.lock'))).toBe(false);
    // The draft is kept in the editor.
    expect(h.text()).toContain('plus more');
  });

  it('sessions re-sort under the cursor: the cursor stays on its session', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 8);
    h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText(sessionId(8).slice(0, 8));
    await waitForCursor(h, new RegExp(sessionId(1).slice(0, 8)), 'the first row selected');
    h.write('jjj');
    await waitForCursor(h, new RegExp(sessionId(4).slice(0, 8)), 'the fourth session selected');

    // Session 7 comes alive and sorts to the top; so does the untouched first row's neighbour order.
    makeLive(p.root, sessionId(7));
    await h.waitForText(new RegExp(`^  enforced\\s+${sessionId(7).slice(0, 8)}`, 'm'));
    const c = cursor(h);
    expect(c.text).toContain(sessionId(4).slice(0, 8));

    // And before any key is pressed, the implied first row is an identity too.
    h.dispose();
    h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24 });
    await waitForCursor(h, new RegExp(sessionId(7).slice(0, 8)), 'the live session first and selected');
    makeLive(p.root, sessionId(2));
    await h.waitForText(new RegExp(`enforced\\s+${sessionId(2).slice(0, 8)}`));
    expect(cursor(h).text).toContain(sessionId(7).slice(0, 8));
  });

  it('40 sessions at 80x24: G then k×5 moves the cursor up the screen; the list scrolls only at the top edge', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 40);
    h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText(sessionId(1).slice(0, 8));
    // G goes to the last row known when it is pressed: on a loaded machine the first read may still be under way
    // (the rows come in slices), so the whole list is waited for (the footer's `live`) before G.
    await h.waitForText(/ live\s*$/m, 30_000);
    h.write('G');
    const bottom = await waitForCursor(h, new RegExp(sessionId(40).slice(0, 8)), 'the last session selected');
    const firstRow = () => h!.screen().find((l) => /^ {2}\S+\s+\d{8}/.test(l) || l.startsWith('▸')) ?? '';
    const topBefore = firstRow();
    expect(h.text()).toMatch(/↑\d+ more/);

    h.write('kkkkk');
    const up = await waitForCursor(h, new RegExp(sessionId(35).slice(0, 8)), 'five rows up');
    expect(up.row).toBe(bottom.row - 5);
    expect(firstRow()).toBe(topBefore);

    // Keep going up: the window does not move until the cursor reaches its top row.
    const visible = bottom.row - h.screen().findIndex((l) => l === topBefore);
    h.write('k'.repeat(visible - 5));
    const atTop = await waitForCursor(h, new RegExp(sessionId(40 - visible).slice(0, 8)), 'the top row of the window');
    expect(firstRow()).toBe(atTop.text);
    h.write('k');
    const scrolled = await waitForCursor(
      h,
      new RegExp(sessionId(39 - visible).slice(0, 8)),
      'one more: the list scrolls',
    );
    expect(scrolled.row).toBe(atTop.row);
  });

  it('the prune dialog of 164 entries scrolls to its last entry', async () => {
    p = makeProject({ withFixture: true });
    const file = path.join(p.root, 'notepad.md');
    const text = fs.readFileSync(file, 'utf8');
    const old: string[] = [];
    for (let n = 1; n <= 164; n++) {
      const minute = String(n % 60).padStart(2, '0');
      const hour = String(Math.floor(n / 60)).padStart(2, '0');
      old.push(`### 2026-10-01 ${hour}:${minute}\nold note number ${String(n).padStart(3, '0')}`);
    }
    fs.writeFileSync(
      file,
      text.replace('<!-- Session notes. Auto-pruned after 7 days. -->\n', (m) => `${m}${old.join('\n')}\n`),
    );
    // The fixture's own five Working entries age with the wall clock: those older than 7 days by now are in the
    // dialog too, after the 164 (oldest first), so its count and its last entry depend on when the test runs. Both
    // are taken from the fixture's stamps (local time, as OMC writes and reads them) at the start and again at the
    // end, so an entry that comes of age meanwhile is not a failure.
    const working = text.slice(
      text.indexOf('## Working Memory'),
      text.indexOf('\n## ', text.indexOf('## Working Memory')),
    );
    const own = [...working.matchAll(/^### (\d{4}-\d\d-\d\d \d\d:\d\d)\n(.{1,24})/gm)].map((m) => ({
      at: new Date(m[1]!.replace(' ', 'T')).getTime(),
      start: m[2]!,
    }));
    const expected = (now: number) => {
      const cutoff = new Date(now);
      cutoff.setDate(cutoff.getDate() - 7); // seven calendar days back in local time, as OMC's prune counts them
      const due = own.filter((e) => e.at < cutoff.getTime()).sort((a, b) => a.at - b.at);
      return { count: 164 + due.length, last: due.at(-1)?.start ?? 'old note number 164' };
    };
    const before = expected(Date.now());
    h = new TerminalHarness({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText('ralph 3/10');
    h.write('n');
    await h.waitForText('Working 169');
    h.write('p');
    const title = await h.waitForText(/Prune \d+ Working Memory entries older than 7 days\?/);
    await h.waitForText(/more below/);
    h.write('G');
    // "N newer entries stay", or "1 newer entry stays" once all but one of the fixture's own have come of age.
    await h.waitForText(/newer (?:entries stay|entry stays)\. MANUAL is never pruned/);
    const end = h.text();
    expect(end).toMatch(/↑ \d+ more above/);
    expect(end).not.toMatch(/more below/);
    // The last entry of the list is on screen, and the count is the one the stamps give.
    const after = expected(Date.now());
    expect([before.count, after.count]).toContain(Number(/Prune (\d+) Working/.exec(title)![1]));
    expect([before.last, after.last].some((last) => end.includes(last))).toBe(true);
    h.write('n');
    await h.waitForText('Working 169');
    h.write(KEY.esc);
  });
});

describe('nested .omc roots', () => {
  it('O watches the nested root OMC hooks made in a subdirectory, after asking, and O again comes back', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 2);
    const nested = path.join(p.dir, 'packages', 'api', '.omc');
    writeFinishedSessions(nested, 5);
    h = new TerminalHarness({ cwd: p.dir, cols: 100, rows: 24 });
    await h.waitForText(/2 sess/, 30_000);
    h.write('O');
    await h.waitForText('Watch packages/api/.omc instead?', 30_000);
    expect(h.text()).toMatch(/5 sessions/);
    h.write('y');
    await h.waitForText(/5 sess/, 30_000);
    expect(h.text()).toContain('packages/api/.omc');
    await h.waitForText(`watching ${nested}`, 30_000);
    h.write('O');
    await h.waitForText('Watch .omc instead?', 30_000);
    h.write('y');
    await h.waitForText(/2 sess/, 30_000);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });

  it('O finds a nested root OMC hooks made after the monitor started, as --json and a fresh monitor do', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 2);
    h = new TerminalHarness({ cwd: p.dir, cols: 120, rows: 24 });
    await h.waitForText(/2 sess/, 30_000);
    // Asked before there is one: the search at start is over (O finishes it), and it found none.
    h.write('O');
    await h.waitForText('no other .omc root under this project', 30_000);
    // A prompt in src/ since: OMC's hooks there keep their own .omc.
    const nested = path.join(p.dir, 'src', '.omc');
    writeFinishedSessions(nested, 3);
    h.write('O');
    await h.waitForText('Watch src/.omc instead?', 30_000);
    expect(h.text()).toMatch(/3 sessions/);
    h.write('y');
    await h.waitForText(`watching ${nested}`, 30_000);
    // And back: the main root is first in the list.
    h.write('O');
    await h.waitForText('Watch .omc instead?', 30_000);
    h.write('y');
    await h.waitForText(/2 sess/, 30_000);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });

  it('names a nested root on screen once the monitor is up (searched in slices once it is live)', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 2);
    writeFinishedSessions(path.join(p.dir, 'packages', 'api', '.omc'), 5);
    h = new TerminalHarness({ cwd: p.dir, cols: 200, rows: 24 });
    await h.waitForText(
      'OMC state also in packages/api/.omc (5 sessions, from hooks started in packages/api/)',
      30_000,
    );
    expect(h.text()).toContain('O switches to it');
    expect(h.text()).toMatch(/2 sess/);
  });

  // A directory named with an escape sequence and a newline is named by every byte (`a\e\nb`, not `ab`), and the
  // notice, wrapped, never leaves the key O at the end of a line with "switches to it" on the next. The first two
  // names made the message read `…ppp/ab/): O` / `switches to it` before either fix; the last two make the escaped
  // name's message break right after "O" at that width without the key rule.
  for (const [cols, rows, dir] of [
    [80, 24, 'ppp/a\u001b\nb'],
    [60, 20, `${'p'.repeat(22)}/a\u001b\nb`],
    [80, 24, 'a\u001b\nb'],
    [60, 20, `${'p'.repeat(18)}/a\u001b\nb`],
  ] as const) {
    it(`names nested root ${JSON.stringify(dir)} by every byte, key and word on one line, at ${cols}x${rows}`, async () => {
      p = makeProject();
      writeFinishedSessions(p.root, 2);
      writeFinishedSessions(path.join(p.dir, dir, '.omc'), 1);
      h = new TerminalHarness({ cwd: p.dir, cols, rows });
      // The whole notice drawn (its last words): a frame half received is never what is checked.
      await h.waitForText(/switches to it/, 30_000);
      const screen = h.screen();
      const shown = dir.replace('\u001b', '\\e').replace('\n', '\\n');
      expect(
        screen.some((l) => /(^|\s)O$/.test(l)),
        screen.join('\n'),
      ).toBe(false);
      expect(
        screen.some((l) => l.includes('O switches to it')),
        screen.join('\n'),
      ).toBe(true);
      expect(h.text()).toContain(`OMC state also in ${shown}/.omc`);
      expect(h.text()).toContain(`${shown}/):`);
      // No byte of the name reached the terminal raw.
      expect(h.output).not.toContain('a\u001b\nb');
      // The frame holds: the header on top, the footer at the bottom, the sessions between.
      expect(screen).toHaveLength(rows);
      expect(screen[0]).toMatch(/^omc-top/);
      expect(h.text()).toMatch(/2 sess/);
      expect(screen.slice(-3).join('\n')).toMatch(/live/);
    });
  }

  it('O offers a nested root holding control bytes by every byte, and says which root it watches after', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 2);
    const nested = path.join(p.dir, 'a\u001b[31mred\nx', '.omc');
    writeFinishedSessions(nested, 3);
    h = new TerminalHarness({ cwd: p.dir, cols: 100, rows: 24 });
    await h.waitForText(/2 sess/, 30_000);
    h.write('O');
    await h.waitForText('Watch a\\e[31mred\\nx/.omc instead?', 30_000);
    h.write('y');
    await h.waitForText(/3 sess/, 30_000);
    await h.waitForText(`watching ${fs.realpathSync(p.dir)}/a\\e[31mred\\nx/.omc`, 30_000);
    expect(h.output).not.toContain('\u001b[31mred');
  });

  it('O with one root says there is no other', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 2);
    h = new TerminalHarness({ cwd: p.dir, cols: 100, rows: 24 });
    await h.waitForText(/2 sess/, 30_000);
    h.write('O');
    await h.waitForText('no other .omc root under this project', 30_000);
  });
});

describe('no .omc yet', () => {
  it('the monitor waits for it, says where it is looking, and shows sessions once OMC creates it', async () => {
    p = makeProject();
    fs.rmSync(p.root, { recursive: true });
    const home = path.join(p.dir, 'home');
    fs.mkdirSync(home);
    h = new TerminalHarness({ cwd: p.dir, cols: 100, rows: 24, env: { HOME: home, OMC_STATE_DIR: undefined } });
    const t = await h.waitForText(/waiting for it/);
    const where = /(\/\S+\.omc)/.exec(t.split('\n').find((l) => l.includes('waiting')) ?? '')?.[1];
    expect(where).toBeTruthy();
    expect(h.exitCode).toBeNull();
    // OMC starts in the project: the directory and a session appear; the monitor picks them up by itself.
    writeFinishedSessions(where as string, 1);
    makeLive(where as string, sessionId(1));
    await h.waitForText(new RegExp(`enforced\\s+${sessionId(1).slice(0, 8)}`), 15_000);
  });
});
