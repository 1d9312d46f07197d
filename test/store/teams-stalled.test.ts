/**
 * Issue 11, observed: a team whose workers all died 14 h ago read "executing · running". Now:
 * no live pid and every heartbeat past the threshold → stalled, first in attention order, and
 * the rows say so. Real OMC fixture, pids injected (they belong to the capture host).
 */
import { describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { teamLines } from '../../src/panes/teams/rows.js';
import { teamNeeds } from '../../src/feeds/attention/needs.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT } from '../helpers/fixtures.js';

function teamsAt(now: number, alive: boolean | null) {
  const store = new OmcStore({
    root: FIXTURE_TREE,
    watch: 'none',
    clock: () => now,
    teams: { pidAlive: () => alive, heartbeatStaleMs: 180_000 },
  });
  store.start();
  const snap = store.teams.getSnapshot();
  void store.close();
  return snap;
}

describe('stalled teams', () => {
  it('every worker dead and silent for 14 h: stalled, and the row says "stalled: no live worker"', () => {
    const snap = teamsAt(READERS_CAPTURED_AT + 14 * 3_600_000, false);
    const t = snap.teams[0]!;
    expect(t.board).not.toBe('done');
    expect(t.stalled).toBe(true);
    expect(teamLines(t, READERS_CAPTURED_AT + 14 * 3_600_000, 120, 180_000, false).join('\n')).toContain(
      'stalled: no live worker',
    );
  });

  it('a live pid, or a fresh heartbeat whose pid cannot be checked, is someone left: not stalled', () => {
    expect(teamsAt(READERS_CAPTURED_AT + 14 * 3_600_000, true).teams[0]?.stalled).toBe(false);
    expect(teamsAt(READERS_CAPTURED_AT, null).teams[0]?.stalled).toBe(false);
  });

  it('every pid gone a moment after a fresh heartbeat: stalled at once, one "needs you" item for the team (not one per worker)', () => {
    const snap = teamsAt(READERS_CAPTURED_AT, false);
    const t = snap.teams[0]!;
    expect(t.stalled).toBe(true);
    const items = teamNeeds(t);
    expect(items.map((i) => i.kind)).toEqual(['team-stalled']);
    expect(items[0]!.text).toContain(`no live worker (${t.workers.length} listed)`);
  });
});
