/**
 * A left click on a list row selects it in every list pane, whatever a row takes on screen (a team three lines,
 * a wiki page two) and whatever stands above the list (tabs, a count line, a search line): the row marked `▸`
 * is the one clicked; so does one in the `!` inbox. The Sessions list and the footer's pane tabs are in kit.test.tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READERS_CAPTURED_AT, makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { KEY, mountApp, type MountedApp } from '../helpers/mount-app.js';
import { generateTeam } from '../helpers/team-gen.js';
import { sessionId, writeFinishedSessions } from '../helpers/sessions-gen.js';
import type { PaneId } from '../../src/kit/ui-store.js';

let p: TempProject | null = null;
let app: MountedApp | null = null;
afterEach(async () => {
  await app?.unmount();
  p?.cleanup();
  app = null;
  p = null;
});

const marked = (a: MountedApp) => a.lines().find((l) => l.startsWith('▸')) ?? '';

// [pane, the text of the line to click, the text the marked row then shows] (the real OMC fixture's items).
const CASES: Array<[PaneId, string, string]> = [
  ['teams', 'no owning session', 'zeta-team'],
  ['wiki', 'checkout, architecture, react', 'Checkout Flow Architecture'],
  ['wiki', 'Release Checklist', 'Release Checklist'],
  ['memory', 'Use pnpm, not npm or yarn', 'Use pnpm'],
  ['notepad', 'TanStack Query adopted', 'TanStack Query adopted'],
];

describe('a click on a list row', () => {
  for (const [pane, click, shows] of CASES) {
    it(`${pane}: a click on "${click}" selects ${shows}`, async () => {
      p = makeProject({ withFixture: true });
      generateTeam({ root: p.root, name: 'zeta-team', workers: 2, tasks: 4, now: READERS_CAPTURED_AT });
      app = await mountApp({ root: p.root, pane, columns: 100, rows: 30, clock: () => READERS_CAPTURED_AT });
      const a = app;
      const y = await waitFor(() => a.lines().findIndex((l) => l.includes(click)) + 1, { what: click });
      const before = marked(a);
      expect(before).not.toContain(shows);
      await a.press(KEY.click(30, y));
      await waitFor(() => marked(a).includes(shows) || null, { what: `${shows} selected` });
    });
  }
});

describe('a click in the ! inbox', () => {
  it('selects the line clicked, as in the lists; a click on the title line selects nothing new', async () => {
    p = makeProject();
    writeFinishedSessions(p.root, 2);
    for (const n of [7, 8, 9]) {
      const dir = path.join(p.root, 'state', 'sessions', sessionId(n));
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'ralph-state.json'), '{"active": true, "iteration": ');
    }
    app = await mountApp({ root: p.root, columns: 120, rows: 30 });
    const a = app;
    await a.waitForText(sessionId(1).slice(0, 8));
    await a.press('!');
    await a.waitForText('Problems with files (3)');
    await waitFor(() => marked(a).includes(sessionId(7)) || null, { what: 'the first problem selected' });
    const lineOf = (n: number) => a.lines().findIndex((l) => l.includes(`${sessionId(n)}/ralph-state.json`)) + 1;
    await a.press(KEY.click(30, lineOf(9)));
    await waitFor(() => marked(a).includes(sessionId(9)) || null, { what: 'the clicked problem selected' });
    // The inbox's title line (the screen's second row, under the header): no row there.
    await a.press(KEY.click(30, 2));
    expect(JSON.stringify(a.ui.state.overlay)).toContain(sessionId(9));
    await a.press(KEY.click(30, lineOf(8)));
    await waitFor(() => marked(a).includes(sessionId(8)) || null, { what: 'the other clicked problem selected' });
    expect(a.ui.state.overlay?.kind).toBe('problems');
  });
});
