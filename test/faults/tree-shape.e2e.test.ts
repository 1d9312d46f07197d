/**
 * The .omc tree changing shape under the real bundle, seen on the screen
 * (test/store/sessions-live.test.ts proves the same for the store alone):
 * the whole root deleted and re-created (a `rm -rf .omc`, a branch switch),
 * and state/sessions replaced by a file. omc-top must say what happened,
 * keep every pane usable, refuse a save with a specific reason and keep the
 * draft, then come back live by itself: watching again, not just polling.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_TREE, liveRalph, makeProject, type TempProject, writeOmcJson } from '../helpers/fixtures.js';
import { loadOmcNotepad } from '../helpers/omc-notepad.js';
import { TerminalHarness } from '../helpers/pty.js';
import { KEY } from '../helpers/keys.js';

const CTRL_S = '\u0013';

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
afterEach(() => {
  h?.dispose();
  p?.cleanup();
  h = null;
  p = null;
});

async function started(): Promise<TerminalHarness> {
  p = makeProject({ withFixture: true });
  h = new TerminalHarness({ cwd: p.dir, cols: 100, rows: 30 });
  await h.waitForText('ralph 3/10');
  await h.waitForText(/ live\s*$/m);
  return h;
}

const SID = 'c0ffee00-0000-4000-8000-000000000001';
const ralph = (iteration: number) => liveRalph({ sessionId: SID, iteration, max: 10 });

describe('the tree changes shape under the running monitor', () => {
  it('.omc deleted: says so, every pane still opens, a save is refused with the draft kept; re-created: back live by itself', async () => {
    const t = await started();
    fs.rmSync(p!.root, { recursive: true, force: true });
    await t.waitForText(/is gone \(moved away or removed\); waiting for it to come back/);
    // The sessions seen stay, out of sight with their root: unreadable, with their last progress.
    await t.waitForText(/unreadable\s+88727f43\s+ralph 3\/10 \(unreadable\)/);

    // Every pane renders over the missing tree.
    for (const [key, sign] of [
      ['n', /Working/],
      ['m', /project-memory\.json|no project memory/i],
      ['w', /wiki|pages/i],
      ['t', /team/i],
      ['s', /STATUS\s+SESSION/],
    ] as const) {
      t.write(key);
      await t.waitForText(sign);
    }

    // A notepad save into the missing tree: refused, specific, draft kept.
    t.write('n');
    await t.waitForText('Working');
    t.write('a');
    await t.waitForText('New Working Memory entry');
    t.write('written while .omc was gone');
    t.write(CTRL_S);
    await t.waitForText(/✗ save: no such directory \(ENOENT: \S*\.omc\)/);
    expect(t.text()).toContain('written while .omc was gone');
    expect(fs.existsSync(p!.root)).toBe(false);
    t.write(KEY.esc);
    await t.waitForText('Discard your draft?');
    t.write('y');

    // Re-created (a branch switch bringing it back): sessions return and the watcher is live again.
    fs.cpSync(FIXTURE_TREE, p!.root, { recursive: true });
    t.write('s');
    await t.waitForText('ralph 3/10');
    await t.waitForNoText(/unreadable/);
    await t.waitForText(/ live\s*$/m);
    await t.waitForNoText(/is gone \(moved away or removed\)/);
    writeOmcJson(path.join(p!.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(4));
    await t.waitForText('c0ffee00 ralph 4/10', 3_000);
    // The notepad pane reads the new tree too, and follows it live.
    t.write('n');
    await t.waitForText(/2 Working 5/);
    (await loadOmcNotepad()).addWorkingMemoryEntry(p!.dir, 'OMC after the tree came back');
    await t.waitForText(/2 Working 6/);
    t.write('q');
    expect(await t.waitForExit()).toBe(0);
  });

  it('.omc moved away, then a file in its place: one line naming .omc, no loop "stopped", nothing blamed on state/', async () => {
    const t = await started();
    const away = path.join(p!.dir, 'omc-away');
    fs.renameSync(p!.root, away);
    await t.waitForText(/is gone \(moved away or removed\); waiting for it to come back/);
    // Every message is in the log (M): the loops went out of sight with their root, none of them stopped.
    t.write('M');
    await t.waitForText(/Messages \(\d+, newest last\)/);
    expect(t.text()).not.toMatch(/loop stopped/);
    t.write(KEY.esc);
    await t.waitForNoText(/Messages \(\d+, newest last\)/);

    fs.writeFileSync(p!.root, 'not a directory');
    await t.waitForText(/is a file now, not a directory; waiting for it to be one again/);
    // The one line names .omc; the files that were in it are not each "a file where a directory was expected".
    expect(t.text()).not.toMatch(/where a directory was expected/);
    t.write('!');
    await t.waitForText(/Problems with files/);
    expect(t.text()).not.toMatch(/where a directory was expected/);
    t.write(KEY.esc);

    fs.rmSync(p!.root);
    fs.renameSync(away, p!.root);
    await t.waitForText('ralph 3/10');
    await t.waitForText(/ live\s*$/m);
    await t.waitForNoText(/is a file now/);
    writeOmcJson(path.join(p!.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(4));
    await t.waitForText('c0ffee00 ralph 4/10', 3_000);
    t.write('M');
    await t.waitForText(/Messages \(\d+, newest last\)/);
    expect(t.text()).not.toMatch(/loop stopped/);
  });

  it('rm -rf .omc with three active loops: one line naming .omc, no loop "stopped", the rows kept (unreadable); one loop file removed is "stopped"', async () => {
    const q = makeProject();
    p = q;
    // Three live loops among finished sessions: `rm` takes a while over them, removing each loop's file while
    // .omc is still there (its directories go last).
    const loops = [1, 2, 3].map((i) => `c0ffee0${i}-0000-4000-8000-000000000001`);
    for (const [i, sid] of loops.entries())
      writeOmcJson(
        path.join(q.root, 'state', 'sessions', sid, 'ralph-state.json'),
        liveRalph({ sessionId: sid, iteration: i + 1, max: 10, projectPath: q.dir }),
      );
    for (let i = 0; i < 300; i++) {
      const sid = `20000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      writeOmcJson(path.join(q.root, 'state', 'sessions', sid, 'ralph-state.json'), {
        active: false,
        iteration: 10,
        max_iterations: 10,
        session_id: sid,
      });
    }
    h = new TerminalHarness({ cwd: q.dir, cols: 120, rows: 30 });
    const t = h;
    await t.waitForText(/303 sess · 3 running/, 30_000);
    await t.waitForText(/ live\s*$/m, 30_000);
    const copy = path.join(q.dir, 'omc-copy');
    fs.cpSync(q.root, copy, { recursive: true, preserveTimestamps: true });

    expect(spawnSync('rm', ['-rf', q.root]).status).toBe(0);
    await t.waitForText(/is gone \(moved away or removed\); waiting for it to come back/);
    // The rows stay, out of sight with their root: the loops are unknown now, not stopped.
    await t.waitForText(/303 sess · 0 running · 303 unreadable/);
    expect(t.text()).toMatch(/unreadable\s+c0ffee01\S*\s+ralph 1\/10 \(unreadable\)/);
    // One line says it: .omc, named once on the screen.
    expect(t.text().match(/is gone \(moved away or removed\)/g)).toHaveLength(1);
    fs.renameSync(copy, q.root);
    await t.waitForText(/303 sess · 3 running/);
    await t.waitForText(/ live\s*$/m);
    // A change after it is on screen: every message about the removal came before it.
    writeOmcJson(
      path.join(q.root, 'state', 'sessions', loops[0]!, 'ralph-state.json'),
      liveRalph({ sessionId: loops[0]!, iteration: 4, max: 10, projectPath: q.dir }),
    );
    await t.waitForText(/c0ffee01\S*\s+ralph 4\/10/);
    t.write('M');
    await t.waitForText(/Messages \(\d+, newest last\)/);
    expect(t.text()).not.toMatch(/loop stopped/);
    t.write(KEY.esc);
    await t.waitForNoText(/Messages \(\d+, newest last\)/);

    // One loop's file removed while .omc stays (OMC's cancel does that): that loop stopped, said as before.
    fs.rmSync(path.join(q.root, 'state', 'sessions', loops[1]!, 'ralph-state.json'));
    await t.waitForText(/loop stopped/);
    await t.waitForText(/303 sess · 2 running/);
  });

  it('state/sessions replaced by a file: a specific problem line, other sessions gone from view, back when it is a directory again', async () => {
    const t = await started();
    const sessions = path.join(p!.root, 'state', 'sessions');
    const aside = path.join(p!.root, 'state', 'sessions.aside');
    fs.renameSync(sessions, aside);
    fs.writeFileSync(sessions, 'not a directory');
    await t.waitForText(/state\/sessions.*is a file where a directory was expected/);
    t.write('n');
    await t.waitForText('Working');
    t.write('s');
    fs.rmSync(sessions);
    fs.renameSync(aside, sessions);
    await t.waitForText('ralph 3/10');
    await t.waitForNoText(/is a file where a directory was expected/);
    writeOmcJson(path.join(sessions, SID, 'ralph-state.json'), ralph(6));
    await t.waitForText('c0ffee00 ralph 6/10', 3_000);
  });
});
