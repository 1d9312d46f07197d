/**
 * The fleet snapshot keeps each root's rows while that root's snapshots stay the same: a change in one project
 * rebuilds that project's rows only. Checked against a full recomputation (a fresh LocalFleet over the same
 * machine) after every step of a random sequence of changes across projects and a worktree; the groups of roots
 * that did not change keep the very same rows, and are the very same group (the view keeps their lines); in the
 * root that changed, only the changed session's row is new.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalFleet } from '../../src/fleet/local.js';
import { groupLines, type FleetSnapshot } from '../../src/fleet/model.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();

// One instant for every fleet here: rows carry spend figures that move with the clock (rebuilt each minute).
const NOW = Date.now();

function fleetOn(machine: Machine): LocalFleet {
  const f = rig.fleet(machine, { watch: 'none', clock: () => NOW });
  f.start();
  return f;
}

/** What the view shows, without the version counter. */
const shown = (s: FleetSnapshot) => s.groups.map((g) => ({ key: g.key, notes: g.notes, rows: g.rows }));

/** A small deterministic generator (the sequence is the same on every run). */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('fleet rows, kept per root', () => {
  it('equal a full recomputation after every change, and unchanged groups keep their rows', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 3);
    const beta = m.project('beta', 2);
    const gamma = m.project('gamma', 2);
    const wt = m.worktree(alpha.dir, 'alpha-feature');
    const wtLive = sessionId(77);
    makeLive(path.join(wt, '.omc'), wtLive);
    m.register(wtLive, wt);
    const roots = [alpha.root, beta.root, gamma.root, path.join(wt, '.omc')];
    const fleet = fleetOn(m);
    let before = fleet.build();
    expect(shown(before)).toEqual(shown(fleetOn(m).build()));

    const rand = rng(30);
    let n = 9000;
    for (let step = 0; step < 8; step++) {
      const root = roots[Math.floor(rand() * roots.length)] as string;
      const sessions = path.join(root, 'state', 'sessions');
      const existing = fs.readdirSync(sessions);
      if (existing.length > 0 && rand() < 0.3) {
        // A session finishes and its state goes.
        fs.rmSync(path.join(sessions, existing[Math.floor(rand() * existing.length)] as string), {
          recursive: true,
          force: true,
        });
      } else {
        makeLive(root, sessionId(n++), Date.now() - Math.floor(rand() * 3_600_000));
      }
      // Only the changed root reads again (what its watcher would make it do).
      const local = fleet.root(rootId(root));
      expect(local, `the fleet has ${root}`).toBeTruthy();
      local?.store.sessions.scan();

      const after = fleet.build();
      expect(shown(after), `step ${step}`).toEqual(shown(fleetOn(m).build()));
      // Groups that hold no changed root keep their row objects (nothing rebuilt for them); a group of one root
      // keeps its very array.
      const changedGroup = `local|${local?.info.group}`;
      // In the changed root too, only the changed session's row is built again: the rows of its other sessions
      // are the very objects built before (a change costs one row, not a pass over the project's sessions).
      const rowsBefore = new Map(before.groups.flatMap((g) => g.rows).map((r) => [r.key, r]));
      const rootRows = after.groups.flatMap((g) => g.rows).filter((r) => r.rootId === local?.info.id);
      const keptRows = rootRows.filter((r) => rowsBefore.has(r.key));
      expect(keptRows.length, `step ${step}: rows of the changed root kept`).toBeGreaterThan(0);
      for (const r of keptRows) expect(r, `step ${step}: ${r.key}`).toBe(rowsBefore.get(r.key));
      for (const g of after.groups) {
        const prev = before.groups.find((p) => p.key === g.key);
        if (g.key === changedGroup || !prev) continue;
        const at = `group ${g.key} untouched at step ${step}`;
        g.rows.forEach((r, i) => expect(r, at).toBe(prev.rows[i]));
        if (new Set(g.rows.map((r) => r.rootId)).size === 1) expect(g.rows, at).toBe(prev.rows);
        // The whole group is the one the view already drew (its lines and ids are kept with it).
        expect(g, at).toBe(prev);
        expect(groupLines(g), at).toBe(groupLines(prev));
      }
      before = after;
    }
  }, 120_000); // each step builds a fresh fleet (git per project): ~30 s on a loaded 2-core machine
});

/** A root's identity as the fleet keys it: "<dev>:<ino>" of the `.omc` directory. */
function rootId(root: string): string {
  const st = fs.statSync(root);
  return `${st.dev}:${st.ino}`;
}
