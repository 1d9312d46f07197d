import path from 'node:path';
import { columnsFor, rowText } from '../../src/panes/sessions/rows.js';
import { READERS_CAPTURED_AT, SESSION, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it, KEY, type Fixtures } from '../helpers/it.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { NO_CLAUDE_DIR } from '../helpers/fixtures.js';

/** The app over the fixture project at the 100 columns these tests were written for. */
function start(app: Fixtures['app'], clock = () => READERS_CAPTURED_AT) {
  return app({ columns: 100, rows: 24, clock });
}

describe('sessions pane', () => {
  it('lists every session with OMC progress, attention first, legacy included', async ({ app }) => {
    const a = await start(app);
    const f = await a.waitForText('ralph 3/10');
    const lines = f.split('\n');
    const rowOf = (needle: string) => lines.findIndex((l) => l.includes(needle));
    // Not enforced (state_write's ralph without session_id) before finished; the session whose
    // only signal is state_clear's targeted one (which the Stop hook rejects) is idle, last.
    expect(rowOf('88727f43')).toBeLessThan(rowOf('8e17b2c5'));
    expect(rowOf('8e17b2c5')).toBeLessThan(rowOf('c37fb212'));
    expect(lines[rowOf('88727f43')]).toContain('not enforced');
    expect(f).toMatch(/\(legacy\)\s+ultrawork 0\/50/);
    // Autopilot shows its tasks done/total next to its iteration (README: "+ tasks done/total").
    expect(f).toMatch(/autopilot 2\/10 tasks 4\/9 execution/);
    expect(f).toMatch(/ultraqa 2\/5/);
  });

  it('j moves the selection, Enter opens the detail view with every field, Esc returns', async ({ app }) => {
    const a = await start(app);
    await a.waitForText('▸');
    const before = a
      .text()
      .split('\n')
      .find((l) => l.startsWith('▸'));
    a.send('j');
    await a.waitForText(before ? new RegExp(`^(?!${escape(before)}).*▸`, 'm') : /▸/);
    const selected = a
      .text()
      .split('\n')
      .find((l) => l.startsWith('▸'))!;
    expect(selected).not.toBe(before);
    const id = idOf(selected);
    a.send('\r');
    const detail = await a.waitForText('fields:');
    expect(detail).toContain(id === 'legacy' ? 'Legacy (session-less) state' : `Session ${id}`);
    a.send(KEY.esc);
    await a.waitForText(/STATUS\s+SESSION/);
  });

  it('/ filters as you type (every word must match) and Esc clears', async ({ app }) => {
    const a = await start(app);
    await a.waitForText('ralph 3/10');
    a.send('/', 'a', 'u', 't', 'o');
    const f = await a.waitForText('1 of 10 match');
    expect(f).toContain('autopilot 2/10');
    expect(f).not.toContain('ralph 3/10');
    // q is typed into the filter, not a quit.
    a.send('q');
    await a.waitForText('/autoq');
    expect(a.exited()).toBe(false);
    a.send(KEY.esc);
    await a.waitForText('ralph 3/10');
  });

  it('/ finds a row by the age it shows, alone or with its other words', async ({ app }) => {
    const a = await start(app);
    const f = await a.waitForText('ralph 3/10');
    // The fixture's rows at its clock: 55bd5e29 alone reads 5h, 709b66d1 alone reads 8m (a ultrawork row too).
    expect(f).toMatch(/55bd5e29 ultrawork 4\/50.* 5h /);
    expect(f).toMatch(/709b66d1 ultrawork 0\/50.* 8m /);
    a.send('/', '5', 'h');
    const byAge = await a.waitForText('1 of 10 match');
    expect(byAge).toContain('55bd5e29');
    expect(byAge).not.toContain('709b66d1');
    a.send(KEY.esc);
    await a.waitForText('ralph 3/10');
    a.send('/', ...'ultrawork 8m');
    const both = await a.waitForText('1 of 10 match');
    expect(both).toContain('709b66d1');
    expect(both).not.toContain('55bd5e29');
  });

  it('/ shows a typed space at once (the match ignores it, the filter line does not)', async ({ app }) => {
    const a = await start(app);
    await a.waitForText('ralph 3/10');
    const filterLine = () =>
      a
        .text()
        .split('\n')
        .find((l) => l.startsWith('/'));
    a.send('/', 'a', 'u', 't', 'o');
    await a.waitForText('1 of 10 match');
    const before = filterLine();
    // The cursor is the cell after the text: '/auto', the cursor, then the count.
    expect(before).toMatch(/^\/auto {3}1 of 10 match/);
    a.send(' ');
    // The space is drawn before any letter follows it, between the text and the cursor; the rows still match 'auto'.
    await a.waitForText(/^\/auto {4}1 of 10 match/m);
    expect(a.text()).toContain('autopilot 2/10');
    a.send('2');
    await a.waitForText(/^\/auto 2 {3}\d+ of 10 match/m);
  });

  it('follows a change on disk (watched store) and keeps the selection on the same session', async ({
    project,
    app,
  }) => {
    const a = await app({ columns: 100, rows: 24, watch: 'auto' });
    await a.waitForText('ralph 3/10');
    a.send(KEY.down, KEY.down);
    // Wait until both keys were handled (the selection state is the third row) before reading the screen.
    const third = a.store.sessions.getSnapshot().sessions[2]!.id;
    await a.waitForText(new RegExp(`^▸.*${third.slice(0, 8)}`, 'm'));
    const selected = () =>
      idOf(
        a
          .text()
          .split('\n')
          .find((l) => l.startsWith('▸'))!,
      );
    const sel = selected();
    expect(sel).toBe(third.slice(0, 8));
    const file = path.join(project.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    const { readFileSync } = await import('node:fs');
    writeOmcJson(file, {
      ...JSON.parse(readFileSync(file, 'utf8')),
      iteration: 9,
      last_checked_at: new Date().toISOString(),
    });
    await a.waitForText('ralph 9/10');
    expect(selected()).toBe(sel);
  });

  it('? shows help for every pane; ! opens the inbox', async ({ app }) => {
    const a = await start(app);
    await a.waitForText('ralph 3/10');
    a.send('?');
    await a.waitForText('omc-top keys');
    a.send(KEY.esc);
    await a.waitForText(/STATUS\s+SESSION/);
    a.send('!');
    await a.waitForText('Problems with files: none');
  });
});

describe('the (retired) tag follows the book that judges the session', () => {
  /** The fixture's rows as the app draws them, every session judged by `version`'s book (as --omc-version pins it). */
  async function rowsUnder({ project: p, mount }: Pick<Fixtures, 'project' | 'mount'>, version: string) {
    const store = new OmcStore({
      root: p.root,
      watch: 'none',
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
      omc: makeOmcInstall(version, '--omc-version'),
      clock: () => READERS_CAPTURED_AT,
    });
    store.start();
    const a = mount(store, { columns: 140, rows: 30, clock: () => READERS_CAPTURED_AT });
    await a.ready;
    return (await a.waitForText('ultraqa 2/5')).split('\n');
  }

  it('under 4.15 rules (whose Stop hook still reads ultrawork and ultraqa) no row calls them retired; under 5.5 rules they are', async ({
    project,
    mount,
  }) => {
    const under415 = await rowsUnder({ project, mount }, '4.15.10');
    expect(under415.find((l) => l.includes('ultraqa 2/5'))).toMatch(/ultraqa 2\/5 fix(?! \(retired\))/);
    expect(under415.find((l) => l.includes('ultrawork 0/50'))).toBeDefined();
    expect(under415.filter((l) => l.includes('(retired)'))).toEqual([]);
    const under55 = await rowsUnder({ project, mount }, '5.5.0');
    expect(under55.find((l) => l.includes('ultraqa 2/5'))).toContain('ultraqa 2/5 fix (retired)');
    expect(under55.find((l) => l.includes('ultrawork 0/50'))).toContain('ultrawork 0/50 (retired)');
  });
});

describe('row layout', () => {
  it('fits 60 and 80 columns exactly, keeping id, progress and age', () => {
    const s = {
      id: '88727f43-cac5-4a42-a0b2-95e28cf65511',
      kind: 'session' as const,
      dir: 'x',
      status: 'enforced' as const,
      rank: 2,
      verdict: null,
      startedMs: 0,
      updatedMs: 1000,
      ended: null,
      cwd: null,
      problems: [],
      cancel: null,
      nextChangeAt: null,
      modes: [
        { mode: 'ralph', iteration: 3, max: 10, phase: 'execution', extras: [], retired: false, problem: null },
        { mode: 'ultrawork', iteration: 0, max: 50, phase: null, extras: [], retired: true, problem: null },
      ] as never,
    };
    for (const width of [60, 80, 120]) {
      const t = rowText(s, 61_000, width, true);
      const line = t.marker + t.status + t.id + t.modes + t.prompt + t.age + t.proc;
      expect(line.length).toBe(width);
      expect(line).toContain('88727f43');
      expect(line).toContain('ralph 3/10');
      expect(t.age.trimEnd().endsWith('1m')).toBe(true);
      expect(columnsFor(width).modes).toBeGreaterThan(20);
    }
  });
});

describe('session rows use the width they have', () => {
  const base = {
    id: '88727f43-cac5-4a42-a0b2-95e28cf65511',
    kind: 'session' as const,
    dir: 'x',
    status: 'enforced' as const,
    rank: 2,
    startedMs: 0,
    updatedMs: 1000,
    ended: null,
    cwd: null,
    problems: [],
    cancel: null,
    nextChangeAt: null,
    verdict: null as never,
  };
  const ralph = { mode: 'ralph', iteration: 3, max: 10, phase: 'verifying', extras: [], retired: false, problem: null };
  const s = { ...base, modes: [{ ...ralph, prompt: 'fix all TypeScript errors in the checkout flow' }] as never };

  it('a ralph phase shows at 80 columns when it fits', () => {
    expect(rowText(s, 61_000, 80, false).modes).toMatch(/^ralph 3\/10 verifying/);
  });

  it('at 200 columns: the whole id, and a prompt / task column', () => {
    const t = rowText(s, 61_000, 200, false);
    expect(t.id.trim()).toBe('88727f43-cac5-4a42-a0b2-95e28cf65511');
    expect(t.prompt).toContain('fix all TypeScript errors in the checkout flow');
    expect((t.marker + t.status + t.id + t.modes + t.prompt + t.age + t.proc).length).toBe(200);
    expect(columnsFor(80).prompt).toBe(0);
  });
});

/** The short session id on a row ("legacy" or the first 8 characters of the id). */
function idOf(row: string): string {
  return row.split(/\s+/).find((t) => /^[0-9a-f]{8}$|^legacy$/.test(t)) ?? '';
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the inbox leaves the global keys to the app, as its footer offers', () => {
  it('? opens the help, M the message log, a pane letter that pane (the inbox closed), Tab the next pane', async ({
    app: mount,
  }) => {
    const a = await mount({ columns: 100, rows: 24 });
    await a.waitForText('ralph 3/10');
    const inbox = async () => {
      a.send('!');
      await a.waitForText('Problems with files');
    };
    await inbox();
    a.send('?');
    await a.waitForText('omc-top keys');
    a.send(KEY.esc);
    await a.waitForText(/STATUS\s+SESSION/);
    await inbox();
    a.send('M');
    await a.waitForText(/Messages \(\d+, newest last\)/);
    a.send(KEY.esc);
    // Esc and the next key in one read are Alt+key: wait until the log has closed.
    await a.waitForText(/STATUS\s+SESSION/);
    await inbox();
    a.send('t');
    await a.waitForText(/TEAM/);
    expect(a.text()).not.toContain('Problems with files');
    await inbox();
    a.send('\t');
    await waitFor(() => !a.text().includes('Problems with files'), { what: 'the inbox closed by Tab' });
  });
});

describe('a narrow footer keeps the way back', () => {
  it('the session detail at 60 columns offers Esc back, the keys that go deeper giving way (it had m, P, r only)', async ({
    app: mount,
  }) => {
    const a = await mount({ columns: 60, rows: 20 });
    await a.waitForText('ralph 3/10');
    a.send('\r');
    await a.waitForText(/updated:/);
    const footer = () =>
      a
        .text()
        .split('\n')
        .filter((l) => l.trim())
        .at(-1) ?? '';
    await waitFor(() => footer().includes('Esc back'), { what: `Esc back in the footer: ${footer()}` });
    expect(footer()).toContain('? help');
  });
});
