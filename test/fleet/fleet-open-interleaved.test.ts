/**
 * A live fleet opens its roots one per turn of the event loop: the first project's rows are in a snapshot while
 * later projects are still to open (the header counts every root found), and the fleet is live only once every
 * root is open and watched.
 */
import { describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../src/fleet/model.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();

describe('omc-top --all: start-up', () => {
  it('shows the first roots while the rest open; live once every root is open', async () => {
    const m = rig.machine();
    const names = ['alpha', 'beta', 'gamma', 'delta'];
    for (const n of names) m.project(n, 2);
    const f = rig.fleet(m, { watch: 'auto', claudeLive: false });
    const seen: FleetSnapshot[] = [];
    f.subscribe(() => seen.push(f.getSnapshot()));
    f.start();
    // Found at once, opened later: start() itself opens no store.
    expect(f.localRoots()).toHaveLength(0);
    await waitFor(() => f.getSnapshot().ready, { timeoutMs: 60_000, what: 'the fleet live' });
    expect(f.localRoots()).toHaveLength(names.length);
    // Some snapshot had a project's rows while another project had none yet (not opened).
    const partial = seen.find((s) => {
      const withRows = s.groups.filter((g) => g.rows.length > 0).length;
      return withRows > 0 && withRows < names.length;
    });
    expect(partial, 'the first projects shown before the last is opened').toBeTruthy();
    expect(partial?.roots, 'the header counts every root found').toBe(names.length);
    expect(partial?.ready).toBe(false);
    const last = f.getSnapshot();
    expect(last.groups.filter((g) => g.rows.length > 0)).toHaveLength(names.length);
  });
});
