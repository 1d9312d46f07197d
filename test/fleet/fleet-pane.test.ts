/**
 * The fleet view on the one rig (mountFleet): sessions of several projects on
 * one machine grouped by repository (worktrees under it), the machine's
 * Claude session count and OMC 5.6's sibling warning, the inotify budget's
 * polling fallback per group, and Enter / Esc into a project's panes and back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();

/** Two projects; the Claude process of the second (its name sorts last) waits on a permission prompt. */
function askingMachine() {
  const made = rig.machine();
  made.env.XDG_STATE_HOME = path.join(made.home, 'state');
  const quiet = made.project('aaa-quiet', 1);
  const asking = made.project('zzz-asking', 0);
  // The registry entry rewritten as the CLI does when it starts waiting.
  const dir = path.join(made.home, '.claude', 'sessions');
  const file = fs
    .readdirSync(dir)
    .map((f) => path.join(dir, f))
    .find((f) => fs.readFileSync(f, 'utf8').includes(asking.live)) as string;
  const entry = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...entry, status: 'waiting', waitingFor: 'permission prompt' }));
  return { quiet, asking, machine: made };
}

describe('omc-top --all: the fleet view', () => {
  it('groups sessions by repository with worktrees under it; Enter opens the project, Esc comes back', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 2);
    m.project('beta', 1);
    const wt = m.worktree(alpha.dir, 'alpha-feature');
    const wtLive = sessionId(77);
    makeLive(path.join(wt, '.omc'), wtLive);
    m.register(wtLive, wt);
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 120, rows: 30 });
    const t = await app.waitForText('3 Claude sessions on this machine');
    if (process.env.SHOW) console.log(t);
    expect(t).toMatch(/alpha {2}\(4 sessions · 2 worktrees\)/);
    expect(t).toMatch(/beta {2}\(2 sessions\)/);
    expect(t).toContain('alpha-feature');
    expect(t).not.toContain('slows');
    // The worktree's live loop is under alpha, marked with its worktree.
    const lines = app.lines();
    const alphaAt = lines.findIndex((l) => /alpha {2}\(/.test(l));
    const betaAt = lines.findIndex((l) => /beta {2}\(/.test(l));
    const wtRow = lines.findIndex((l) => l.includes('alpha-feature') && l.includes(wtLive.slice(0, 8)));
    expect(wtRow).toBeGreaterThan(alphaAt);
    expect(alphaAt < betaAt ? wtRow < betaAt : true).toBe(true);

    // Enter on a session row: that project's own panes, at the session's detail.
    await app.press('j');
    const first = app.lines().find((l) => l.startsWith('▸'));
    expect(first).toBeTruthy();
    await app.press(KEY.enter);
    await app.waitForText('Esc back to the fleet');
    await app.waitForText(/ralph/);
    // Esc closes the detail first (the pane's own Esc), then returns to the fleet.
    await app.press(KEY.esc);
    await app.press(KEY.esc);
    await app.waitForText('Claude sessions on this machine');
    expect(app.text()).not.toContain('Esc back to the fleet');
    await app.press('q');
    expect(app.exited()).toBe(true);
    app.unmountOnly();
  });

  it('a row that needs you says so (the attention model of its root): "!" and what for, sorted first', async () => {
    const { quiet, asking, machine } = askingMachine();
    const fleet = rig.fleet(machine, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 140, rows: 24 });
    const t = await app.waitForText('needs you: waiting for you: permission prompt');
    const lines = t.split('\n');
    const row = lines.findIndex((l) => l.includes(asking.live.slice(0, 8)));
    // (The cost column, "—" here, sits between the Claude cell and the modes.)
    expect(lines[row]).toMatch(/!waiting +(?:— +)?needs you: waiting for you: permission prompt · ralph/);
    // Its group comes first, though its name sorts last.
    expect(row).toBeLessThan(lines.findIndex((l) => l.includes(quiet.live.slice(0, 8))));
    app.unmountOnly();
  });

  it('a acknowledges what needs you in the selected session: it leaves the row and the count, and is kept', async () => {
    const { asking, machine } = askingMachine();
    const fleet = rig.fleet(machine, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 140, rows: 24 });
    await app.waitForText('needs you: waiting for you: permission prompt');
    const selected = () => app.lines().find((l) => l.startsWith('▸')) ?? '';
    while (!selected().includes(asking.live.slice(0, 8))) await app.press('j');
    await app.press('a');
    await app.waitForText('acknowledged: waiting for you');
    await waitFor(() => !app.text().includes('needs you: waiting for you'), { what: 'the row no longer needing you' });
    // Kept where every omc-top on this machine reads it.
    expect(fs.readdirSync(path.join(machine.home, 'state', 'omc-top')).some((f) => f.startsWith('attention-'))).toBe(
      true,
    );
    // Once acknowledged, nothing there needs you: `a` says so.
    await app.press('a');
    await app.waitForText('nothing in this session needs you');
    app.unmountOnly();
  });

  it('says when more than 8 Claude sessions run on this machine (OMC 5.6 slows siblings down)', async () => {
    const m = rig.machine();
    const p = m.project('many', 0);
    for (let i = 0; i < 8; i++) m.register(sessionId(500 + i), p.dir);
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 160, rows: 24 });
    await app.waitForText('9 Claude sessions on this machine (over 8: OMC 5.6 slows sibling sessions down)');
    app.unmountOnly();
  });

  it('polls a root that would go over the inotify budget, and says so in its group header', async () => {
    const m = rig.machine();
    m.project('small', 1);
    m.project('other', 1);
    // Half of 12 watches: the first root (a handful of directories) fits, the second does not.
    const fleet = rig.fleet(m, { watch: 'auto', limits: { watches: 12, instances: 128 }, claudeLive: false });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 200, rows: 24 });
    const t = await app.waitForText('polling: over the inotify budget', 'a polled group');
    expect(t.split('\n').filter((l) => l.includes('over the inotify budget'))).toHaveLength(1);
    await waitFor(() => fleet.getSnapshot().ready, { what: 'every root read', timeoutMs: 20_000 });
    // A fallback: the header in the warning colour.
    const over = fleet.getSnapshot().groups.find((g) => g.notes.some((n) => n.includes('over the inotify budget')));
    expect(over?.tone).toBe('warn');
    app.unmountOnly();
  });

  it('--poll: each group says it polls as the user asked, in the header colour of a group at rest, not as a warning', async () => {
    const m = rig.machine();
    m.project('small', 1);
    m.project('other', 1);
    const fleet = rig.fleet(m, { watch: 'poll', claudeLive: false });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 200, rows: 24 });
    await waitFor(() => app.lines().filter((l) => l.includes('polling every 1 s (--poll)')).length === 2, {
      what: 'both groups saying they poll as asked',
      timeoutMs: 20_000,
    });
    await waitFor(() => fleet.getSnapshot().ready, { what: 'every root read', timeoutMs: 20_000 });
    expect(fleet.getSnapshot().groups.map((g) => g.tone)).toEqual(['normal', 'normal']);
    app.unmountOnly();
  });
});
