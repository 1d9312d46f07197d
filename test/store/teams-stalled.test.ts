/**
 * Issue 11, observed: a team whose workers all died 14 h ago read "executing · running". Now:
 * no live pid and every heartbeat past the threshold → stalled, first in attention order, and
 * the rows say so. Real OMC fixture, pids injected (they belong to the capture host).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { OmcStore } from '../../src/store/store.js';
import { teamLines } from '../../src/panes/teams/rows.js';
import { teamNeeds } from '../../src/feeds/attention/needs.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, writeOmcJson } from '../helpers/fixtures.js';

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

  it.skipIf(process.platform !== 'linux')(
    "a dead worker's pid handed to a process started after its last heartbeat is not the worker: stalled",
    async ({ project: p, newStore }) => {
      // A live process started now stands for whatever the system gave the dead workers' pid to.
      const other = spawn('sleep', ['600'], { stdio: 'ignore' });
      onTestFinished(() => void other.kill('SIGKILL'));
      await new Promise((r) => other.once('spawn', r));
      const workers = path.join(p.root, 'state', 'team', 'fix-ts-errors', 'workers');
      /** Every worker's heartbeat as OMC's worker hook writes it, under that process's pid, at `at`. */
      const beatAll = (at: number) => {
        for (const w of fs.readdirSync(workers))
          writeOmcJson(path.join(workers, w, 'heartbeat.json'), {
            pid: other.pid,
            last_turn_at: new Date(at).toISOString(),
            turn_count: 4,
            alive: true,
          });
      };
      const team = () => {
        const store = newStore({ root: p.root, watch: 'none' });
        store.start();
        return store.teams.getSnapshot().teams.find((t) => t.name === 'fix-ts-errors')!;
      };
      // The workers' last beats were ten minutes before that process started: it is none of them.
      beatAll(Date.now() - 10 * 60_000);
      const gone = team();
      expect(gone.workers.map((w) => w.pidAlive)).toEqual(gone.workers.map(() => false));
      expect(gone.stalled).toBe(true);
      expect(teamNeeds(gone).map((n) => n.kind)).toEqual(['team-stalled']);
      // Beats written while it runs (it started before them): the same pid is the workers' own, alive.
      beatAll(Date.now());
      const live = team();
      expect(live.workers.map((w) => w.pidAlive)).toEqual(live.workers.map(() => true));
      expect(live.stalled).toBe(false);
    },
  );
});
