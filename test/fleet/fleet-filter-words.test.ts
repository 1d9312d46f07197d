/**
 * The fleet's `/` filter reads the words a row shows (sweep 8): the CLAUDE cell (`!waiting`) and the `needs you:`
 * text find the rows that need the user, the AGE cell finds a row by its age as drawn, and a project line left by a
 * filter opens the worktree of a row the filter kept, not the project's first worktree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();

describe('omc-top --all: / matches what the row shows', () => {
  it('finds the row that needs you by its CLAUDE cell and its needs-you text', async () => {
    const m = rig.machine();
    m.env.XDG_STATE_HOME = path.join(m.home, 'state');
    m.project('quiet', 1);
    const asking = m.project('asking', 0);
    const dir = path.join(m.config, 'sessions');
    const file = fs
      .readdirSync(dir)
      .map((f) => path.join(dir, f))
      .find((f) => fs.readFileSync(f, 'utf8').includes(asking.live)) as string;
    const entry = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...entry, status: 'waiting', waitingFor: 'permission prompt' }));
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 140, rows: 24 });
    await app.waitForText('needs you: waiting for you: permission prompt');
    for (const word of ['!waiting', 'needs', 'permission prompt']) {
      await app.step('/', ...word);
      const t = await app.waitForText(new RegExp(`/${word} .*1 of 3 match`));
      expect(t).toContain(asking.live.slice(0, 8));
      await app.step(KEY.esc);
      await app.waitForText(/quiet {2}\(/);
    }
    app.unmountOnly();
  });

  it('finds a row by its AGE as drawn', async () => {
    const m = rig.machine();
    m.project('quiet', 2);
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 140, rows: 24 });
    const all = (await app.waitForText(/quiet {2}\(3 sessions/)).split('\n');
    // A row's last cell is its age (`3h`, `45s`): one with a letter no session id holds (ids are hex).
    const row = all.map((l) => /^[▸ ] .* (\d+[smh])$/.exec(l)).find((x) => x !== null);
    expect(row, all.join('\n')).toBeTruthy();
    const age = (row as RegExpExecArray)[1] as string;
    await app.step('/', ...age);
    const t = await app.waitForText(new RegExp(`/${age} .*\\d+ of 3 match`));
    expect(t).toContain((row as RegExpExecArray)[0].slice(2));
    app.unmountOnly();
  });

  it('Enter on a project line under a filter opens the worktree of the rows shown', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    const wt = m.worktree(alpha.dir, 'alpha-feature');
    const wtLive = sessionId(77);
    makeLive(path.join(wt, '.omc'), wtLive);
    m.register(wtLive, wt);
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 120, rows: 30 });
    const all = (await app.waitForText(/alpha {2}\(3 sessions · 2 worktrees\)/)).split('\n');
    // Filter for the live loop of the worktree that is NOT the project's first row's.
    const firstRow = all[all.findIndex((l) => /alpha {2}\(/.test(l)) + 1] ?? '';
    const [want, other] = firstRow.includes(wtLive.slice(0, 8))
      ? [
          { id: alpha.live, dir: '/alpha/' },
          { id: wtLive, dir: '/alpha-feature/' },
        ]
      : [
          { id: wtLive, dir: '/alpha-feature/' },
          { id: alpha.live, dir: '/alpha/' },
        ];
    expect(firstRow).toContain(other.id.slice(0, 8));
    const word = want.id.slice(0, 8);
    await app.step('/', ...word, KEY.enter);
    const t = await app.waitForText(new RegExp(`/${word} .*1 of 3 match`));
    // The cursor is on the project line (the first line shown); the one row shown is the other worktree's.
    expect(t.split('\n').find((l) => l.startsWith('▸'))).toMatch(/alpha {2}\(/);
    await app.step(KEY.enter);
    const opened = await app.waitForText('Esc back to the fleet');
    expect(opened).toContain(want.dir);
    expect(opened).not.toContain(other.dir);
    app.unmountOnly();
  });
});
