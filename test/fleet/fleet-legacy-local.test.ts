/**
 * A local project with the session-less state and a session directory that is itself named legacy: the fleet
 * shows two rows with two keys ("(legacy)" and "legacy"), and Enter on each opens that one's own detail in the
 * project's panes, never the other's. On the one rig (mountFleet) over a real LocalFleet.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { writeOmcJson } from '../helpers/fixtures.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();

describe('omc-top --all: the session-less state beside a directory named legacy', () => {
  it('two rows with two keys; Enter opens each one’s own detail', async () => {
    const m = rig.machine();
    const p = m.project('alpha', 0);
    const now = new Date().toISOString();
    const ralph = (sid: string | null, prompt: string) => ({
      active: true,
      iteration: 2,
      max_iterations: 10,
      started_at: now,
      last_checked_at: now,
      prompt,
      ...(sid ? { session_id: sid } : {}),
    });
    writeOmcJson(path.join(p.root, 'state', 'sessions', 'legacy', 'ralph-state.json'), ralph('legacy', 'dir loop'));
    writeOmcJson(path.join(p.root, 'state', 'ralph-state.json'), ralph(null, 'stateless loop'));
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 120, rows: 30 });
    await app.waitForText(/alpha {2}\(3 sessions\)/);
    const rows = fleet.getSnapshot().groups.flatMap((g) => g.rows);
    expect(
      rows
        .filter((r) => r.session === 'legacy')
        .map((r) => r.sessionless)
        .sort(),
    ).toEqual([false, true]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);

    const open = async (dirRow: boolean) => {
      const want = (l: string) => (dirRow ? /\slegacy\s/.test(l) && !l.includes('(legacy)') : l.includes('(legacy)'));
      await app.step('g');
      for (let i = 0; i < 6 && !want(app.lines().find((l) => l.startsWith('▸')) ?? ''); i++) await app.step('j');
      expect(want(app.lines().find((l) => l.startsWith('▸')) ?? ''), app.text()).toBe(true);
      await app.step(KEY.enter);
      return app.waitForText('Esc back to the fleet');
    };
    const dirDetail = await open(true);
    expect(dirDetail).toContain('Session legacy');
    expect(dirDetail).not.toContain('Legacy (session-less) state');
    await app.step(KEY.esc, KEY.esc);
    await app.waitForText(/alpha {2}\(3 sessions\)/);
    const stateDetail = await open(false);
    expect(stateDetail).toContain('Legacy (session-less) state');
    app.unmountOnly();
  });
});
