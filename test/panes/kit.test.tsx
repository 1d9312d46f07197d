/**
 * The kit's shared behaviour, the same from every pane: the generated help
 * (legend, whole key names at 80 columns, q quits from it), --readonly shown
 * as disabled, Tab / Shift-Tab between panes, Esc + key in one read, the
 * message log, old success messages clearing on a pane switch, the mouse wheel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GLOBAL_BINDINGS } from '../../src/input/router.js';
import { INBOX_BINDINGS } from '../../src/input/inbox.js';
import { PANES } from '../../src/panes/registry.js';
import { helpLines } from '../../src/ui/overlay-lines.js';
import { width as cells } from '../../src/ui/format.js';
import { tooSmallLine } from '../../src/ui/layout.js';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { KEY, mountApp, type MountedApp } from '../helpers/mount-app.js';
import { makeLive, sessionId, writeFinishedSessions } from '../helpers/sessions-gen.js';

let p: TempProject | null = null;
let app: MountedApp | null = null;
afterEach(async () => {
  await app?.unmount();
  p?.cleanup();
  app = null;
  p = null;
});

async function open(
  opts: { readonly?: boolean; sessions?: number; columns?: number; rows?: number; live?: number } = {},
) {
  p = makeProject();
  writeFinishedSessions(p.root, opts.sessions ?? 6);
  if (opts.live) makeLive(p.root, sessionId(opts.live));
  app = await mountApp({ root: p.root, readonly: opts.readonly, columns: opts.columns, rows: opts.rows });
  await app.waitForText(sessionId(1).slice(0, 8));
  return app;
}

const selectedRow = (a: MountedApp) => a.lines().find((l) => l.startsWith('▸')) ?? '';

describe('the pane kit', () => {
  it('? shows a help generated from the tables, with the legend, and q quits from it', async () => {
    const a = await open();
    await a.press('?');
    await a.waitForText('omc-top keys');
    await a.press('G');
    // The last line of the legend, with the scroll marker above it.
    await a.waitForText('not there (not yet, or gone)');
    expect(a.text()).toMatch(/↑ \d+ more above/);
    expect(a.text()).not.toContain('more below');
    await a.press('q');
    await waitFor(() => a.exited() || null, { what: 'q quits from the help' });
  });

  it('the help at its end stays at its end through resizes; scrolled elsewhere it keeps the entry at its top', async () => {
    const a = await open({ columns: 80, rows: 24 });
    await a.press('?');
    await a.waitForText('omc-top keys');
    await a.press('G');
    const end = 'not there (not yet, or gone)';
    await a.waitForText(end);
    for (const [columns, rows] of [
      [120, 40],
      [60, 20],
      [80, 24],
    ] as const) {
      a.resize(columns, rows);
      await a.waitForText(end);
      expect(a.text()).not.toContain('more below');
    }
    // Back to the top, then a few lines down: the entry at the top is the one after a resize wraps it anew.
    await a.press('g', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j');
    await waitFor(() => /↑ 8 more above/.test(a.text()) || null, { what: 'scrolled eight lines' });
    const top = a.lines().find((l, i) => i > 0 && /more above/.test(a.lines()[i - 1] ?? '')) ?? '';
    const firstWords = top.trim().split(/\s+/).slice(0, 2).join(' ');
    expect(firstWords).not.toBe('');
    a.resize(50, 24);
    await waitFor(
      () => {
        const ls = a.lines();
        const i = ls.findIndex((l) => /more above/.test(l));
        return i >= 0 && (ls[i + 1] ?? '').trim().startsWith(firstWords) ? true : null;
      },
      { what: `the line starting ${firstWords} at the top after the resize` },
    );
  });

  it('too small for the frame: the line fits in words, and keys other than q act on nothing', async () => {
    for (const columns of [1, 5, 10, 14, 19, 28, 40]) {
      const line = tooSmallLine(columns);
      expect(line.length, String(columns)).toBeLessThanOrEqual(Math.max(1, columns - 1));
      expect(line, String(columns)).toMatch(/20x5|^2/);
    }
    expect(tooSmallLine(10)).toBe('need 20x5');
    const a = await open();
    a.resize(10, 5);
    await a.waitForText('need 20x5');
    // Not the notepad (n), not the help (?), not a pane switch by Tab: nothing changes out of sight.
    await a.press('n', '?', '\t');
    expect(a.ui.state.pane).toBe('sessions');
    expect(a.ui.state.overlay).toBeNull();
    a.resize(80, 24);
    await a.waitForText(sessionId(1).slice(0, 8));
    a.resize(10, 5);
    await a.waitForText('need 20x5');
    await a.press('q');
    await waitFor(() => a.exited() || null, { what: 'q quits while the terminal is too small' });
  });

  it('the help never cuts a key name at 80 columns and fits every line', () => {
    for (const readonly of [false, true]) {
      const lines = helpLines({ panes: PANES, globals: GLOBAL_BINDINGS, inbox: INBOX_BINDINGS, log: [], readonly }, 80);
      for (const l of lines) {
        expect(cells(l.text)).toBeLessThanOrEqual(80);
        expect(l.text).not.toContain('…');
      }
      // Every key of every binding is on some line, whole.
      const all = lines.map((l) => l.text).join('\n');
      for (const pane of PANES) for (const b of pane.bindings) expect(all).toContain(b.help.split(' ')[0]);
      for (const b of INBOX_BINDINGS) expect(all).toContain(b.help.split(' ')[0]);
    }
  });

  it('? starts with the keys of where the user is: the list keys in the list, the detail keys in the detail', () => {
    const firstMode = (state: unknown) =>
      helpLines(
        {
          panes: PANES,
          globals: GLOBAL_BINDINGS,
          inbox: INBOX_BINDINGS,
          log: [],
          readonly: false,
          current: 'sessions',
          currentState: state,
        },
        120,
      )
        .map((l) => l.text)
        .find((t) => /^ [a-z][a-z ]*:$/.test(t));
    const sessions = PANES.find((x) => x.id === 'sessions')!;
    const list = sessions.init() as object;
    expect(firstMode(list)).toBe(' list:');
    expect(firstMode({ ...list, detail: 'x' })).toBe(' session detail:');
  });

  it('--readonly: write keys leave the footer, the help marks them disabled with the reason, pressing one says why', async () => {
    const a = await open({ readonly: true });
    const footer = a.lines().at(-1) ?? '';
    expect(footer).toContain('Enter detail');
    expect(footer).not.toMatch(/c cancel|p pause/);
    await a.press('c');
    await a.waitForText('--readonly: cancel is disabled (nothing is written)');
    await a.press('?');
    await a.waitForText('omc-top keys');
    const help = helpLines(
      { panes: PANES, globals: GLOBAL_BINDINGS, inbox: INBOX_BINDINGS, log: [], readonly: true },
      200,
    );
    expect(help.some((l) => /cancel the session.*\(disabled: read-only \(--readonly\)/.test(l.text))).toBe(true);
  });

  it('Tab / Shift-Tab switch panes from every pane when no text field is open', async () => {
    const a = await open();
    const order = PANES.map((x) => x.id);
    for (let i = 1; i <= order.length; i++) {
      await a.press(KEY.tab);
      await waitFor(() => a.ui.state.pane === order[i % order.length] || null, { what: `pane ${i}` });
    }
    await a.press(KEY.backtab);
    await waitFor(() => a.ui.state.pane === order.at(-1) || null, { what: 'Shift-Tab back' });
  });

  it('Esc and the next key in one read (fast typing) are both obeyed', async () => {
    const a = await open();
    await a.press('/', 't', 'a', 's', 'k');
    await a.waitForText('6 of 6 match');
    a.send('\u001bj'); // Esc closes and clears the filter, then j moves the selection
    await waitFor(() => (selectedRow(a).includes(sessionId(2).slice(0, 8)) && !a.text().includes('match')) || null, {
      what: 'filter cleared and selection moved',
    });
  });

  it('a long message wraps whole; M opens the message log with every message, its time and its full text; a pane switch clears an old success message', async () => {
    const a = await open({ columns: 60 });
    const long = `saved ${'a very long message '.repeat(6)}END`;
    a.ui.flash(long, 'success');
    await a.waitForText('✓ saved');
    // A long message wraps on the message line: read whole, not cut to …
    expect(a.text()).toContain('END');
    await a.press('n');
    await waitFor(() => a.ui.state.flash === null || null, { what: 'success message cleared on pane switch' });
    await a.press('M');
    await a.waitForText('Messages (1, newest last)');
    expect(a.text()).toContain('END');
    expect(a.text()).toMatch(/\d\d:\d\d:\d\d ✓ saved/);
    await a.press(KEY.esc);
    await waitFor(() => a.ui.state.overlay === null || null, { what: 'Esc closes the log' });
  });

  it('M opens the message log at its end: the newest message is in view', async () => {
    const a = await open({ rows: 14 });
    for (let i = 1; i <= 30; i++) a.ui.flash(`note number ${i}`, 'info');
    await a.press('M');
    await a.waitForText('note number 30');
    expect(a.text()).toMatch(/↑ \d+ more above/);
    expect(a.text()).not.toContain('more below');
    expect(a.text()).not.toMatch(/note number 1\s*$/m);
  });

  it('the mouse wheel moves the selection like j / k', async () => {
    const a = await open();
    await a.press(KEY.wheeldown, KEY.wheeldown);
    await waitFor(() => selectedRow(a).includes(sessionId(3).slice(0, 8)) || null, { what: 'two wheel steps down' });
    await a.press(KEY.wheelup);
    await waitFor(() => selectedRow(a).includes(sessionId(2).slice(0, 8)) || null, { what: 'one wheel step up' });
  });
});

describe('mouse clicks', () => {
  it('a click on a session row selects it (the wheel still moves); a click on a pane in the footer opens it', async () => {
    const a = await open({ sessions: 6 });
    const rowOf = (id: string) => a.lines().findIndex((l) => l.includes(id.slice(0, 8)));
    await a.press(KEY.click(20, rowOf(sessionId(4)) + 1));
    await waitFor(() => selectedRow(a).includes(sessionId(4).slice(0, 8)) || null, {
      what: 'the clicked row selected',
    });
    await a.press(KEY.click(20, rowOf(sessionId(2)) + 1));
    await waitFor(() => selectedRow(a).includes(sessionId(2).slice(0, 8)) || null, { what: 'the next click' });
    // A click on the column titles or the header selects nothing else.
    await a.press(KEY.click(20, a.lines().findIndex((l) => l.includes('STATUS')) + 1), KEY.click(5, 1));
    await a.press(KEY.wheeldown);
    await waitFor(() => selectedRow(a).includes(sessionId(3).slice(0, 8)) || null, { what: 'the wheel after a click' });
    const footer = a.lines().length - 1;
    const x = (a.lines()[footer] ?? '').indexOf(' t ') + 1;
    await a.press(KEY.click(x + 1, footer + 1));
    await waitFor(() => a.ui.state.pane === 'teams' || null, { what: 'the Teams tab clicked' });
  });
});

describe('header', () => {
  it('counts running loops, not a cancelled session whose modes are gone; one labelled time zone (UTC) whatever TZ says', async () => {
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      p = makeProject();
      const now = Date.parse('2026-11-30T18:15:30.000Z');
      writeFinishedSessions(p.root, 2, now);
      // Session 9: its loop was cancelled (mode file gone), the 30 s signal still in force.
      writeOmcJson(path.join(p.root, 'state', 'sessions', sessionId(9), 'cancel-signal-state.json'), {
        active: true,
        requested_at: new Date(now - 5_000).toISOString(),
        expires_at: new Date(now + 25_000).toISOString(),
        source: 'state_clear',
      });
      app = await mountApp({ root: p.root, clock: () => now });
      await app.waitForText(sessionId(9).slice(0, 8));
      const header = app.lines()[0] ?? '';
      expect(header).toContain('3 sess · 0 running');
      expect(header).toMatch(/18:15 UTC$/);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

describe('sessions list', () => {
  it('H hides finished and stale rows; S cycles attention → recent → progress → id; the cursor stays on its session', async () => {
    const a = await open({ sessions: 6, live: 5 });
    await a.waitForText(new RegExp(`enforced\\s+${sessionId(5).slice(0, 8)}`));
    await a.press('H');
    await a.waitForText('6 done hidden'.replace('6', '5'));
    expect(a.lines().filter((l) => /\d{8}/.test(l))).toHaveLength(1);
    await a.press('H');
    await waitFor(() => !a.text().includes('done hidden') || null, { what: 'rows back' });
    await a.press('j');
    await waitFor(() => selectedRow(a).includes(sessionId(1).slice(0, 8)) || null, { what: 'second row selected' });
    await a.press('S', 'S', 'S');
    await a.waitForText('by id');
    const rows = a.lines().filter((l) => /^[▸ ] \S+\s+\d{8}/.test(l));
    expect(rows[0]).toContain(sessionId(1).slice(0, 8));
    expect(rows[4]).toContain(sessionId(5).slice(0, 8));
    expect(selectedRow(a)).toContain(sessionId(1).slice(0, 8));
  });
});

describe('the sort in use', () => {
  it('the column titles name the order in use, the default (attention) too, beside the scroll note, even with the prompt column on; the footer offers S sort at 120 columns', async () => {
    const a = await open({ sessions: 30, live: 5, columns: 120, rows: 14 });
    const titles = () => a.lines().find((l) => l.includes('STATUS')) ?? '';
    await waitFor(() => /by attention · ↓\d+ more/.test(titles()) || null, {
      what: 'the list with its order and scroll note',
    });
    expect(a.lines().at(-1)).toContain('S sort');
    for (const order of ['recent', 'progress', 'id', 'attention']) {
      await a.press('S');
      await waitFor(() => new RegExp(`by ${order} · ↓\\d+ more`).test(titles()) || null, { what: `by ${order} named` });
      expect(titles()).toMatch(/STATUS +SESSION +MODES .*PROMPT \/ TASK .*AGE +CLAUDE/);
    }
  });
});

describe('the inbox', () => {
  it('! lists the problems with files like any list: move, read the full text, Enter opens the session whose file it is', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 3);
    for (const n of [7, 8]) {
      const dir = path.join(p.root, 'state', 'sessions', sessionId(n));
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'ralph-state.json'), '{"active": true, "iteration": ');
    }
    app = await mountApp({ root: p.root });
    await app.waitForText(sessionId(1).slice(0, 8));
    await app.press('!');
    await app.waitForText('Problems with files (2)');
    await app.press('j');
    await waitFor(() => (selectedRow(app!).includes(sessionId(8)) ? true : null), { what: 'second problem selected' });
    await app.press(KEY.enter);
    await app.waitForText(`Session ${sessionId(8)}`);
    expect(app.ui.state.overlay).toBeNull();
    expect(app.ui.state.pane).toBe('sessions');
  });
});

describe('every list says what is off screen', () => {
  it('the notepad list shows ↓n more, and ↑n more after G', async () => {
    p = makeProject({ withFixture: true });
    const file = path.join(p.root, 'notepad.md');
    const extra = Array.from(
      { length: 40 },
      (_, i) =>
        `### 2026-11-29 ${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}\nnote ${i}`,
    );
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace('<!-- Session notes. Auto-pruned after 7 days. -->\n', (m) => `${m}${extra.join('\n')}\n`),
    );
    app = await mountApp({ root: p.root, pane: 'notepad' });
    await app.waitForText(/Working 45/);
    await app.waitForText(/↓\d+ more/);
    await app.press('G');
    await app.waitForText(/↑\d+ more/);
    expect(app.text()).not.toMatch(/↓\d+ more/);
  });
});
