/**
 * The History pane in the real App over a real store: a run ledger written by
 * this project's restatement of OMC 5.6's writer (test/helpers/omc56.ts), what
 * the user reads at 80x24 and in a 60-column pane, the filters, the detail.
 */
import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it, KEY, type Fixtures } from '../helpers/it.js';
import { writeOmcJson } from '../helpers/fixtures.js';
import * as omc56 from '../helpers/omc56.js';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';
const D = 'dddddddd-0000-4000-8000-000000000004';
const T0 = Date.parse('2026-11-30T10:00:00.000Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
const NOW = T0 + 90 * 60_000;

/** completed ralph (closeout written), cancelled autopilot (none), crashed team, running ultragoal. */
function history(root: string): void {
  omc56.start(root, 'ralph', A, at(0));
  fs.mkdirSync(path.join(root, 'notepads', 'ralph'), { recursive: true });
  fs.writeFileSync(path.join(root, 'notepads', 'ralph', 'problems.md'), '- closeout\n');
  omc56.observeClear(root, 'ralph', A, { active: true, started_at: at(0), current_phase: 'complete' }, at(30));
  omc56.start(root, 'autopilot', B, at(40));
  omc56.observeClear(root, 'autopilot', B, { active: true, started_at: at(40), current_phase: 'execution' }, at(50));
  omc56.start(root, 'team', C, at(60));
  omc56.start(root, 'ultragoal', D, at(70));
  writeOmcJson(path.join(root, 'state', 'sessions', D, 'ultragoal-state.json'), {
    active: true,
    session_id: D,
    iteration: 4,
    started_at: at(70),
  });
}

/** The history above in an empty project, the app opened on History; the app and the pane's text. */
async function open(
  { emptyProject: p, app: mountApp }: Pick<Fixtures, 'emptyProject' | 'app'>,
  columns: number,
  rows: number,
  pane: 'sessions' | 'notepad' | 'teams' = 'sessions',
) {
  history(p.root);
  const app = await mountApp({ root: p.root, columns, rows, clock: () => NOW, pane });
  await app.press('R');
  return { app, text: await app.waitForText('OUTCOME', 'the History pane') };
}

const rowOf = (text: string, mode: string) =>
  text.split('\n').find((l) => l.replace(/^[\s▸]+/, '').startsWith(`${mode} `)) ?? '';

describe('History pane', () => {
  it('one line per run at 80x24: mode, session, start, outcome, duration, closeout, iterations', async ({
    emptyProject,
    app: mountApp,
  }) => {
    const { app, text } = await open({ emptyProject, app: mountApp }, 80, 24);
    expect(text).toContain('MODE');
    expect(rowOf(text, 'ultragoal')).toMatch(/^▸ ultragoal\s+dddddddd\s+11-30 11:10\s+running\s+—\s+—\s+4\b/);
    expect(rowOf(text, 'team')).toMatch(/team\s+cccccccc\s+11-30 11:00\s+crashed/);
    expect(rowOf(text, 'autopilot')).toMatch(/autopilot\s+bbbbbbbb\s+11-30 10:40\s+cancelled\s+10m\s+missing/);
    expect(rowOf(text, 'ralph')).toMatch(/ralph\s+aaaaaaaa\s+11-30 10:00\s+completed\s+30m\s+written/);
    for (const l of app.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(80);
  });

  it('fits a 60-column pane: the time of day, no cell cut', async ({ emptyProject, app: mountApp }) => {
    const { app, text } = await open({ emptyProject, app: mountApp }, 60, 24);
    expect(rowOf(text, 'autopilot')).toMatch(/autopilot\s+bbbbbbbb\s+10:40\s+cancelled\s+10m\s+missing/);
    for (const l of app.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(60);
  });

  it('the hotkey opens it from every pane, including a pane where h and r mean something', async ({
    emptyProject,
    app: mountApp,
  }) => {
    const { app } = await open({ emptyProject, app: mountApp }, 80, 24, 'notepad');
    expect(app.text()).toContain('R:History');
  });

  it('o and f filter by outcome and mode; / by words; Esc clears', async ({ emptyProject, app: mountApp }) => {
    const { app } = await open({ emptyProject, app: mountApp }, 80, 24);
    await app.press('o'); // running
    await app.waitForText('outcome running');
    await app.press('o', 'o', 'o'); // completed → cancelled → crashed
    let text = await app.waitForText('outcome crashed');
    expect(rowOf(text, 'team')).toContain('crashed');
    expect(text).not.toMatch(/^\s*▸?\s*ralph/m);
    await app.press(KEY.esc);
    text = await app.waitForText(/ralph\s+aaaaaaaa/);
    await app.press('f'); // autopilot (modes sorted)
    text = await app.waitForText('mode autopilot');
    expect(text).toContain('1 of 4 runs');
    await app.press(KEY.esc, '/', 'c', 'r', 'a', 's', 'h', KEY.enter);
    text = await app.waitForText('1 of 4 runs');
    expect(rowOf(text, 'team')).toMatch(/^▸ team.*crashed/);
  });

  it('o under a mode filter steps only through the outcomes that mode has (never to 0 runs)', async ({
    emptyProject,
    app: mountApp,
  }) => {
    const { app } = await open({ emptyProject, app: mountApp }, 80, 24);
    await app.press('f', 'f'); // autopilot → ralph (modes sorted)
    await app.waitForText('mode ralph');
    await app.press('o'); // ralph has only a completed run
    let text = await app.waitForText('outcome completed');
    expect(text).toContain('1 of 4 runs');
    await app.press('o'); // back to every outcome, not on to cancelled (0 of 4)
    text = await app.waitForText(/mode ralph(?! · outcome)/);
    expect(text).not.toMatch(/outcome (running|completed|cancelled|failed|crashed|ended|unknown)/);
    expect(text).toContain('1 of 4 runs');
    expect(text).not.toContain('0 of 4 runs');
  });

  it('Enter shows the run: what its outcome means, the closeout, what OMC will say next session and the fix', async ({
    emptyProject,
    app: mountApp,
  }) => {
    const { app } = await open({ emptyProject, app: mountApp }, 80, 30);
    await app.press('j', 'j'); // autopilot
    await app.press(KEY.enter);
    const text = await app.waitForText('autopilot run');
    expect(text).toContain(`session ${B}`);
    expect(text).toContain('outcome: cancelled');
    expect(text).toContain('closeout: missing');
    expect(text).toMatch(
      /next session: the autopilot run of session bbbbbbbb ended[\s\S]*OMC\s+will report it at the next session start/,
    );
    expect(text).toContain('file: notepads/autopilot/problems.md');
    expect(text).toMatch(/fix: write what the run learned/);
    expect(text).toContain('state/runs/ledger.jsonl:');
    await app.press(KEY.esc);
    await app.waitForText('OUTCOME');
  });

  it('the problems view explains the 5.6 file behind a next-session fact, and Enter on it opens History', async ({
    emptyProject,
    app: mountApp,
  }) => {
    const { app } = await open({ emptyProject, app: mountApp }, 100, 30, 'sessions');
    await app.press(KEY.esc, 's', '!');
    const text = await app.waitForText('notepads/autopilot/problems.md');
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /\(notepads\/autopilot\/problems\.md: OMC 5\.6 per-mode notepads: a run writes its closeout here/,
    );
    await app.press(KEY.enter);
    await app.waitForText('OUTCOME');
  });
});

describe('History pane: a list longer than the pane', () => {
  /** 30 ralph runs, one a minute, each in its own session. */
  function manyRuns(root: string): void {
    for (let i = 0; i < 30; i++) {
      const id = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
      omc56.start(root, 'ralph', id, at(i));
    }
  }
  const TITLES: Record<number, string[]> = {
    60: ['MODE', 'SESSION', 'START', 'OUTCOME', 'TOOK', 'CLOSEOUT', 'ITER'],
    80: ['MODE', 'SESSION', 'STARTED', 'OUTCOME', 'TOOK', 'CLOSEOUT', 'ITER', 'COST EST'],
  };
  for (const columns of [60, 80]) {
    it(`at ${columns} columns the ↓N more note cuts no column title, and says how many are out of sight`, async ({
      emptyProject: p,
      app: mountApp,
    }) => {
      manyRuns(p.root);
      const app = await mountApp({ root: p.root, columns, rows: 24, clock: () => NOW });
      await app.press('R');
      const text = await app.waitForText(/↓\d+ more/, 'the scroll note');
      const titles = text.split('\n').find((l) => l.includes('OUTCOME')) ?? '';
      for (const t of TITLES[columns] as string[]) expect(titles).toMatch(new RegExp(`(^|\\s)${t}(\\s|$)`));
      // The note counts the rows not drawn: 30 runs less those on screen.
      const drawn = app.lines().filter((l) => /^[\s▸]+ralph\s/.test(l)).length;
      expect(text).toContain(`↓${30 - drawn} more`);
      for (const l of app.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(columns);
      // At the end of the list: the last run drawn, the rows above it counted.
      await app.press('G');
      const end = await app.waitForText(/↑\d+ more/, 'the note at the end');
      const endTitles = end.split('\n').find((l) => l.includes('OUTCOME')) ?? '';
      for (const t of TITLES[columns] as string[]) expect(endTitles).toMatch(new RegExp(`(^|\\s)${t}(\\s|$)`));
      expect(end).toMatch(/^▸ ralph\s+00000000/m);
    });
  }
});
