/**
 * `--all` with a project whose .omc omc-top may not list (OMC writes 0700 / 0600; another user's omc-top): what needs
 * the user there is in no session (omc-top cannot see one), so no row carries it; the project's group header says
 * it, in the rows' words, as `status` on that root says `needs you: 1`. The refusal is injected as the kernel gives
 * it (test/helpers/read-faults.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/fixtures.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();
let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

describe('omc-top --all: a project whose .omc omc-top may not list', () => {
  it("says on its group's header that it needs you, and why", async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    m.project('beta', 1);
    fault = refuseReads('EACCES', (abs) => abs === alpha.root || abs.startsWith(`${alpha.root}/`));
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const note = 'needs you: unreadable loop state (.omc)';
    // The roots open one by one after start: wait for both.
    const groups = await waitFor(
      () => {
        const gs = fleet.build().groups;
        return gs.some((g) => g.label === 'beta') && gs.find((g) => g.label === 'alpha')?.notes.includes(note) && gs;
      },
      { what: "alpha's header saying it needs you" },
    );
    const a = groups.find((g) => g.label === 'alpha');
    expect(a?.tone).not.toBe('normal');
    // The readable project says nothing of the kind.
    expect(groups.find((g) => g.label === 'beta')?.notes.some((n) => n.startsWith('needs you'))).toBe(false);
  });
});
